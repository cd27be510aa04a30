package dev.benchlake.ingest.format;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * pgbench writes one log file per thread: {@code prefix.PID} for the first, {@code prefix.PID.1},
 * {@code prefix.PID.2} … for the others. Those files are one run.
 */
final class PgbenchLogFiles {
  private static final Pattern NAME = Pattern.compile("(.+?\\.\\d+)(?:\\.(\\d+))?");

  private PgbenchLogFiles() {}

  /** The files grouped by run ({@code dir/prefix.PID}), threads in order; other names stand alone. */
  static List<List<Path>> groupByRun(List<Path> files) {
    Map<String, List<Path>> groups = new LinkedHashMap<>();
    for (Path file : files) {
      Matcher m = NAME.matcher(file.getName());
      String key = m.matches() ? new Path(file.getParent(), m.group(1)).toString() : file.toString();
      groups.computeIfAbsent(key, k -> new ArrayList<>()).add(file);
    }
    List<List<Path>> out = new ArrayList<>();
    for (List<Path> group : groups.values()) {
      group.sort(Comparator.comparingInt(PgbenchLogFiles::threadIndex));
      out.add(group);
    }
    return out;
  }

  static int threadIndex(Path file) {
    Matcher m = NAME.matcher(file.getName());
    if (!m.matches() || m.group(2) == null) {
      return 0;
    }
    // A thread number too large for an int (a renamed file) sorts last rather than crashing the plan.
    Integer thread = Digits.smallInt(m.group(2));
    return thread == null ? Integer.MAX_VALUE : thread;
  }

  /**
   * The fields of a line: split on runs of spaces, ignoring leading and trailing ones (pgbench
   * writes exactly one between fields). Hand-written: a regex split costs more than the rest of
   * parsing a log line.
   */
  static String[] fields(String line) {
    int n = line.length();
    int count = 0;
    for (int i = 0; i < n; ) {
      while (i < n && line.charAt(i) == ' ') {
        i++;
      }
      if (i < n) {
        count++;
        while (i < n && line.charAt(i) != ' ') {
          i++;
        }
      }
    }
    String[] out = new String[count];
    int k = 0;
    for (int i = 0; i < n; ) {
      while (i < n && line.charAt(i) == ' ') {
        i++;
      }
      int start = i;
      while (i < n && line.charAt(i) != ' ') {
        i++;
      }
      if (i > start) {
        out[k++] = line.substring(start, i);
      }
    }
    return out;
  }

  static boolean isInteger(String s) {
    if (s.isEmpty() || s.length() > 18) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
