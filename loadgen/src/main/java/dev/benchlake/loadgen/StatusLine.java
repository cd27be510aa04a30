package dev.benchlake.loadgen;

import dev.benchlake.core.TerminalText;
import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Shows a run's progress: on a terminal a status line rewritten in place every second (tasks/s,
 * errors, p50/p99 so far) on stderr; otherwise (output piped, CI) a plain log line every
 * {@value #LOG_INTERVAL_S} s, so that logs stay readable and free of carriage returns. The line's
 * text is escaped ({@link TerminalText}: a step name is data); its {@code \r} is the line's own.
 */
final class StatusLine implements ProgressListener {
  private static final Logger LOG = LoggerFactory.getLogger(StatusLine.class);
  static final long LOG_INTERVAL_S = 10;

  private final PrintStream terminal;
  private final boolean quiet;
  private long lastLogNs = System.nanoTime();
  private int lastWidth;

  /** @param terminal where to draw the live line, or null for plain log lines */
  StatusLine(PrintStream terminal, boolean quiet) {
    this.terminal = terminal;
    this.quiet = quiet;
  }

  @Override
  public void onMessage(String message) {
    LOG.info("{}", message);
  }

  @Override
  public void onStepStart(String step, int index, int count) {
    if (!quiet) {
      LOG.info("step {}/{}: {}", index + 1, count, step);
    }
  }

  @Override
  public void onProgress(Progress p) {
    if (quiet) {
      return;
    }
    String line = TerminalText.escape(format(p));
    if (terminal != null) {
      String padded = line.length() < lastWidth ? line + " ".repeat(lastWidth - line.length()) : line;
      terminal.print("\r" + padded);
      terminal.flush();
      lastWidth = line.length();
    } else if (System.nanoTime() - lastLogNs >= TimeUnit.SECONDS.toNanos(LOG_INTERVAL_S)) {
      lastLogNs = System.nanoTime();
      LOG.info("{}", line);
    }
  }

  @Override
  public void onStepEnd(StepResult result) {
    if (terminal != null && !quiet && lastWidth > 0) {
      terminal.println();
      lastWidth = 0;
    }
  }

  static String format(Progress p) {
    return String.format(Locale.ROOT, "%s%s %5.0fs  %,d tasks  %,.0f/s  %,d errors  p50 %s  p99 %s",
        p.step(), p.warmup() ? " (warm-up)" : "", p.elapsedS(), p.attempts(), p.tasksPerSecond(), p.errors(),
        millis(p.p50Ns()), millis(p.p99Ns()));
  }

  static String millis(long ns) {
    if (ns <= 0) {
      return "-";
    }
    double ms = ns / 1e6;
    return ms < 10 ? String.format(Locale.ROOT, "%.2f ms", ms) : String.format(Locale.ROOT, "%,.0f ms", ms);
  }
}
