package dev.benchlake.core;

import dev.benchlake.core.redaction.Redaction;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * User labels ({@code --label key=value}) and the dimensions lifted out of them.
 *
 * <p>Labels describe what a result file cannot know about itself (the OS of the server, the host,
 * the PostgreSQL version). A few well-known keys are also stored as columns of the warehouse's
 * {@code runs} table so that selectors such as {@code os=linux,db_major=16} are cheap.
 */
public final class Labels {
  public static final String OS = "os";
  public static final String DB_VERSION = "db_version";
  public static final String DB_MAJOR = "db_major";
  public static final String WORKLOAD = "workload";
  public static final String CLIENTS = "clients";
  public static final String HOST = "host";

  /**
   * The label keys that are also columns of the {@code runs} table, in the order of those columns
   * (the one list: the schema, ingest and {@code runs} all take it from here).
   */
  public static final List<String> DIMENSIONS = List.of(OS, DB_VERSION, DB_MAJOR, WORKLOAD, CLIENTS, HOST);

  private static final Pattern KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");
  private static final int MAX_VALUE_LENGTH = 1024;

  private Labels() {}

  /**
   * Parses {@code key=value}. The value may contain anything but control characters (it is stored
   * unchanged and escaped by each report format); the key is restricted so that it can serve as a
   * column name and a selector key, and may not name a secret ({@link Redaction#namesSecret}).
   *
   * @throws IllegalArgumentException with a message fit for the user
   */
  public static Map.Entry<String, String> parse(String keyEqualsValue) {
    int eq = keyEqualsValue.indexOf('=');
    if (eq <= 0) {
      throw new IllegalArgumentException(
          "label '" + keyEqualsValue + "' is not of the form key=value");
    }
    String key = keyEqualsValue.substring(0, eq).strip();
    String value = keyEqualsValue.substring(eq + 1).strip();
    // Labels are data: stored with the runs and shown in every report as given, never redacted. So
    // one that would be redacted anywhere else (its name names a secret) is refused, not stored.
    if (Redaction.namesSecret(key)) {
      throw new IllegalArgumentException("label '" + key + "' names a secret: labels are stored with the runs and shown in every report, so none may hold a password, key "
          + "or token; give credentials through PGPASSWORD, PGPASSFILE or ~/.pgpass (or --conf for a store)");
    }
    validate(key, value);
    return Map.entry(key, value);
  }

  /** Checks one label; see {@link #parse}. */
  public static void validate(String key, String value) {
    if (!KEY.matcher(key).matches()) {
      throw new IllegalArgumentException(
          "label key '" + key + "' must start with a letter or '_' and contain only letters, digits, '_', '.', '-' (64 at most)");
    }
    if (value.length() > MAX_VALUE_LENGTH) {
      throw new IllegalArgumentException("label '" + key + "' is longer than " + MAX_VALUE_LENGTH + " characters");
    }
    for (int i = 0; i < value.length(); i++) {
      if (Character.isISOControl(value.charAt(i))) {
        throw new IllegalArgumentException("label '" + key + "' contains a control character");
      }
    }
    if (key.equals(DB_MAJOR) || key.equals(CLIENTS)) {
      try {
        Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("label '" + key + "' must be a whole number, not '" + value + "'");
      }
    }
  }

  /** Validates every entry and returns an immutable copy sorted by key. */
  public static SortedMap<String, String> copyOf(Map<String, String> labels) {
    TreeMap<String, String> sorted = new TreeMap<>();
    labels.forEach((k, v) -> {
      validate(k, v);
      sorted.put(k, v);
    });
    return Collections.unmodifiableSortedMap(sorted);
  }
}
