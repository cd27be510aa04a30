package dev.benchlake.ingest.format;

/**
 * Numbers in names and labels (a file's {@code range100}, {@code dop4}, a thread suffix, a summary's
 * {@code range=R}): any number of digits may stand there, so a value that does not fit an int is
 * null for the caller to say so, never a {@code NumberFormatException}.
 */
final class Digits {
  private Digits() {}

  /** The int of a run of digits, or null when it is not one or does not fit. */
  static Integer smallInt(String digits) {
    try {
      return Integer.valueOf(digits);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
