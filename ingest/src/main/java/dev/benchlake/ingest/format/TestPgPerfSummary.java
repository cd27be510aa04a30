package dev.benchlake.ingest.format;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A TestPostgresqlPerf {@code summary.<app-guid>.txt}: the application id, the counters
 * ({@code Rung Finshd Total Timeout Error ExClient}, the author's spelling), the minimum, maximum
 * and average durations as {@code HH:MM:SS.fffffff}, then one line per error message, in the order
 * the errors happened.
 *
 * @param failures Timeout + Error + ExClient: the tasks that failed
 */
public record TestPgPerfSummary(
    String applicationId,
    long running,
    long finished,
    long total,
    long timeouts,
    long errors,
    long clientExceptions,
    String minDuration,
    String maxDuration,
    String averageDuration,
    List<String> messages) {

  private static final Pattern COUNTERS = Pattern.compile("(\\d+)\\t(\\d+)\\t(\\d+)\\t(\\d+)\\t(\\d+)\\t(\\d+)");
  private static final Pattern DURATION = Pattern.compile("(Minimum|Maximum|Average) Duration:(\\d{2}:\\d{2}:\\d{2}\\.\\d{7})");

  public TestPgPerfSummary {
    messages = List.copyOf(messages);
  }

  public long failures() {
    return timeouts + errors + clientExceptions;
  }

  /**
   * @param lines the file's lines without line ends
   * @throws IllegalArgumentException with the line number and the cause
   */
  public static TestPgPerfSummary parse(List<String> lines) {
    List<String> content = new ArrayList<>(lines);
    while (!content.isEmpty() && content.get(content.size() - 1).isBlank()) {
      content.remove(content.size() - 1);
    }
    if (content.size() < 6) {
      throw new IllegalArgumentException("has " + content.size() + " lines; a summary has at least 6"
          + " (application id, counter names, counters, minimum, maximum and average duration)");
    }
    String id = content.get(0).trim();
    if (!TestPgPerfDetailsParser.GUID.matcher(id).matches()) {
      throw new IllegalArgumentException("line 1 is not an application id: '" + id + "'");
    }
    if (!content.get(1).startsWith("Rung\tFinshd\tTotal\tTimeout\tError\tExClient")) {
      throw new IllegalArgumentException("line 2 is not the counter names (Rung Finshd Total Timeout Error ExClient)");
    }
    Matcher c = COUNTERS.matcher(content.get(2).trim());
    if (!c.matches()) {
      throw new IllegalArgumentException("line 3 is not six tab-separated counters: '" + content.get(2) + "'");
    }
    String[] durations = new String[3];
    for (int i = 0; i < 3; i++) {
      Matcher d = DURATION.matcher(content.get(3 + i).trim());
      String expected = List.of("Minimum", "Maximum", "Average").get(i);
      if (!d.matches() || !d.group(1).equals(expected)) {
        throw new IllegalArgumentException("line " + (4 + i) + " is not '" + expected + " Duration:HH:MM:SS.fffffff'");
      }
      durations[i] = d.group(2);
    }
    return new TestPgPerfSummary(id, Long.parseLong(c.group(1)), Long.parseLong(c.group(2)), Long.parseLong(c.group(3)),
        Long.parseLong(c.group(4)), Long.parseLong(c.group(5)), Long.parseLong(c.group(6)),
        durations[0], durations[1], durations[2], content.subList(6, content.size()));
  }
}
