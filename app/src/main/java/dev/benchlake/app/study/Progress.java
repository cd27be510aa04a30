package dev.benchlake.app.study;

import dev.benchlake.analysis.report.Format;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What a study says on stderr while it runs (issue 49: progress a person can follow). Without
 * {@code --verbose}: one status line per round, a look's calls, the warm-up's start and how long it
 * took, warnings, errors and the interrupt line. With it, also the detail of each measurement: each
 * pair's start and end, each step's "both ready", each swap's timing, each warm-up pass, each
 * ingest. A terminal and a pipe get the same lines (no line rewritten in place, no escape code):
 * what a user reads live is what a log of the run holds.
 */
public final class Progress {
  private final PrintWriter log;
  private final PrintWriter detail;
  private final boolean verbose;
  private final LongSupplier clockNs;
  /** The warm-ups' time so far: no round's, so that the time left is not read from it. */
  private long warmUpNs;

  /** @param verbose {@code --verbose}: the detail is shown too */
  public Progress(PrintWriter log, boolean verbose) {
    this(log, verbose, System::nanoTime);
  }

  /** @param clockNs the clock that times rounds and the warm-up ({@link System#nanoTime}; a test's fake) */
  Progress(PrintWriter log, boolean verbose, LongSupplier clockNs) {
    this.log = log;
    this.verbose = verbose;
    this.detail = verbose ? log : new PrintWriter(Writer.nullWriter());
    this.clockNs = clockNs;
  }

  /** Where the lines always shown go (warnings, errors, status lines). */
  public PrintWriter log() {
    return log;
  }

  /** Where the detail goes: stderr with {@code --verbose}, else nowhere (the runs' files and logs keep it). */
  public PrintWriter detail() {
    return detail;
  }

  public boolean verbose() {
    return verbose;
  }

  long nowNs() {
    return clockNs.getAsLong();
  }

  /** A line always shown. */
  void say(String line) {
    log.println(line);
    log.flush();
  }

  /** A line of detail, shown with {@code --verbose}. */
  void detail(String line) {
    detail.println(line);
    detail.flush();
  }

  /**
   * The side JVMs' warm-up begins: {@code passes} of each of {@code kinds} kinds of pair; returns when
   * it began, for {@link #warmedUp}.
   */
  long warmingUp(int passes, int kinds) {
    say(String.format(Locale.ROOT, "study: warming up the sides' JVMs: %d passes of %d %s (not kept)", passes, kinds,
        kinds == 1 ? "kind of pair" : "kinds of pair"));
    return nowNs();
  }

  /** The warm-up that began at {@code startNs} ({@link #warmingUp}) is done. */
  void warmedUp(long startNs) {
    long tookNs = nowNs() - startNs;
    warmUpNs += tookNs;
    say("study: warmed up in " + Format.minutes(tookNs / 1e9));
  }

  /** The warm-ups' time so far ({@link #warmedUp}), which a round's time leaves out. */
  long warmUpNs() {
    return warmUpNs;
  }

  /**
   * A round's name, counted as the looks and {@code --max-rounds} count: comparison rounds on their
   * own ({@code round 4}), the a/a control's apart ({@code a/a control round 2}). The study's
   * {@code round} label numbers both kinds together in the order they ran, which no line shows.
   */
  static String roundName(boolean aa, int ofKind) {
    return (aa ? "a/a control round " : "round ") + ofKind;
  }

  /** {@code about 3 min 10 s left}, or when it is not known yet (NaN). */
  static String timeLeft(double seconds) {
    return Double.isNaN(seconds) ? "time left known after the first round" : "about " + Format.minutes(seconds)
        + " left";
  }
}
