package dev.benchlake.warehouse;

import java.util.Locale;

/**
 * The closed set of {@code rejects.error_type} values: what kind of fault made a line a reject, so
 * that a user can group thousands of rejects into a few causes (as DuckDB's reject tables do). The
 * free-text {@code reason} says the rest. Stored as {@link #sqlName()}; a new value is a format
 * change readers must know, so keep the set small.
 *
 * <p>A summary that disagrees with its details file is not here: it is not a bad line but a bad
 * source, and stops the ingest (exit 2) before anything is written.
 */
public enum RejectType {
  /** Another number of fields than the format (or the header) has. */
  FIELD_COUNT,
  /** A field that must be a number is not one. */
  NUMBER_FORMAT,
  /** A number that is negative, not finite, or beyond what a time or duration can hold. */
  OUT_OF_RANGE,
  /** A field (or a line's figures) that must be there is empty or missing. */
  MISSING_VALUE,
  /** A non-numeric value or a line in the wrong form: bad quoting, not a GUID, not a boolean, not a time. */
  SYNTAX,
  /** A value that contradicts another part of the source (another field, the file's name, the manifest). */
  MISMATCH,
  /** A line that is not a line of the format at all. */
  UNKNOWN_LINE,
  /** The header line is not the format's. */
  HEADER,
  /** A line whose bytes are not valid UTF-8. */
  ENCODING,
  /** A line repeating what the source may hold only once (a second run's summary in one file). */
  DUPLICATE;

  /** The value stored in the warehouse and shown by {@code benchlake rejects}: {@code field_count}, … */
  public String sqlName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
