package dev.benchlake.loadgen;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code benchlake loadgen --barrier stdio}: a {@link StepBarrier} held by the process that
 * started this one (a duet's coordinator), over this process's stdin and stdout. Before each step
 * loadgen prints one line, {@code benchlake-barrier ready INDEX STEP}, and waits for
 * {@code go INDEX EPOCH_NS} on stdin: the step then starts at that instant (ns since the epoch,
 * UTC). {@code stop}, or the end of stdin (the coordinator went away), stops the run as
 * interrupted. Every other stdout line is loadgen's usual output; the coordinator passes those on.
 *
 * <p>This class is both ends' one definition of the protocol: {@link #ready} parses what the
 * coordinator reads, {@link #go} and {@link #STOP} make what it writes.
 */
public final class StdioBarrier implements StepBarrier {
  /** The prefix of the line a step waits behind. */
  public static final String READY = "benchlake-barrier ready";
  /** Stops the run. */
  public static final String STOP = "stop";
  private static final Pattern READY_LINE = Pattern.compile(Pattern.quote(READY) + " (\\d+) (.+)");
  private static final Pattern GO_LINE = Pattern.compile("go (\\d+) (-?\\d+)");

  /** Where the holder's lines are read: stdin, or a session's queue of them. */
  @FunctionalInterface
  public interface Lines {
    /** The next line, or null at the end. */
    String readLine() throws IOException;
  }

  private final Lines in;
  private final PrintWriter out;

  public StdioBarrier(BufferedReader in, PrintWriter out) {
    this(in::readLine, out);
  }

  public StdioBarrier(Lines in, PrintWriter out) {
    this.in = in;
    this.out = out;
  }

  /** A step waiting behind the barrier, as its ready line says. */
  public record Ready(int index, String step) {}

  /** The ready line of {@code line}, or empty for any other line. */
  public static Optional<Ready> ready(String line) {
    Matcher m = READY_LINE.matcher(line);
    return m.matches() ? Optional.of(new Ready(Integer.parseInt(m.group(1)), m.group(2))) : Optional.empty();
  }

  /** The line that starts step {@code index} at {@code epochNs}. */
  public static String go(int index, long epochNs) {
    return String.format(Locale.ROOT, "go %d %d", index, epochNs);
  }

  @Override
  public long awaitStart(int index, String step) throws IOException {
    synchronized (out) {
      out.println(READY + " " + index + " " + step);
      out.flush();
    }
    String line = in.readLine();
    if (line == null || line.strip().equals(STOP)) {
      throw new IOException(line == null ? "the barrier's holder went away (stdin closed) before step " + step
          : "the barrier's holder stopped the run before step " + step);
    }
    Matcher m = GO_LINE.matcher(line.strip());
    if (!m.matches() || Integer.parseInt(m.group(1)) != index) {
      throw new IOException("the barrier's holder answered '" + line.strip() + "' to step " + index + " (" + step
          + "); expected 'go " + index + " EPOCH_NS'");
    }
    return Long.parseLong(m.group(2));
  }
}
