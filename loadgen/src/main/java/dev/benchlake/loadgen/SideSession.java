package dev.benchlake.loadgen;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * {@code benchlake loadgen --session stdio}: a duet's side that lives for a whole study. It reads
 * one run per line on stdin ({@code run ["--workload", …]}: loadgen's options as a JSON array),
 * runs it exactly as {@code benchlake loadgen} would (an embedded server of its own, started and
 * stopped by the run), behind the same stdin's step barrier ({@link StdioBarrier}), and after a
 * complete run prints {@link #DONE} and reads the next. Only the JVM is kept from run to run: a side
 * pays a JVM's start and its JIT's warm-up once per study instead of once per round. The servers
 * are not kept: runs that share a server start share its caches and state, and would replicate
 * less than they seem to (analysis's Replicates says so of such runs).
 *
 * <p>A run that fails or is refused ends the session with that run's exit code and its one-line
 * error on stderr, as the one-shot command would; the end of stdin ends it with 0.
 *
 * <p>This class is both ends' one definition of the protocol: {@link #run} makes the line the
 * holder writes, {@link #DONE} is the line it waits for.
 */
public final class SideSession {
  /** The option's only value. */
  static final String STDIO = "stdio";
  /** The line after a complete run. */
  public static final String DONE = "benchlake-session done";
  private static final String RUN = "run ";

  private final BufferedReader in;
  private final PrintWriter out;

  SideSession(BufferedReader in, PrintWriter out) {
    this.in = in;
    this.out = out;
  }

  /** The line that asks a session for one run with loadgen's options {@code args}. */
  public static String run(List<String> args) {
    try {
      return RUN + Json.mapper().writeValueAsString(args);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Runs every run read on stdin; the exit code of the first that did not complete, else 0. */
  int serve() throws IOException {
    String line;
    while ((line = in.readLine()) != null) {
      if (line.isBlank()) {
        continue;
      }
      if (!line.startsWith(RUN)) {
        throw new BadInputException("the session's holder sent '" + line.strip() + "'; expected 'run [OPTIONS]'");
      }
      LoadgenCommand command = new LoadgenCommand();
      command.session = this;
      int code = Cli.commandLine(command).execute(args(line.substring(RUN.length())));
      if (code != ExitCode.OK) {
        return code;
      }
      out.println(DONE);
      out.flush();
    }
    return ExitCode.OK;
  }

  /** Where the runs' step barriers read: this session's stdin, which its own loop reads too. */
  BufferedReader stdin() {
    return in;
  }

  private static String[] args(String json) {
    try {
      return Json.mapper().readValue(json, new TypeReference<List<String>>() {}).toArray(String[]::new);
    } catch (JsonProcessingException e) {
      throw new BadInputException("the session's holder sent a run whose options are not a JSON array of strings: "
          + e.getOriginalMessage());
    }
  }
}
