package dev.benchlake.core.cli;

/** Process exit codes of every benchlake command. */
public final class ExitCode {
  /** The command did what was asked. */
  public static final int OK = 0;
  /** A runtime failure: the database went away, a disk filled up, a bug. */
  public static final int FAILURE = 1;
  /** Bad usage or bad input: an unknown option, a malformed file, an empty warehouse. */
  public static final int BAD_INPUT = 2;
  /** A {@code --fail-on} gate failed: {@code compare}'s (a step slower, …) or a study's (also its a/a control unreliable). */
  public static final int REGRESSION = 3;

  private ExitCode() {}
}
