package dev.benchlake.analysis.trend;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The x-axis of a trend read as a series (trend.html's per-step line charts): by time when every
 * value of {@code --by} is a date or a timestamp, so that nights are spaced by the time between
 * them and a missing night shows; in order, evenly spaced, when {@code --order-by} ordered them
 * (commits by their commit time). Versions (11, 14, 17) are not a series: their bars stay.
 *
 * @param kind {@code time} or {@code ordered}
 * @param title the axis title, which says how the points are placed
 * @param at each value's place: an ISO 8601 instant for {@code time} (a date is its UTC midnight),
 *     the position from 0 for {@code ordered}
 */
public record SeriesAxis(String kind, String title, Map<String, String> at) {
  public static final String TIME = "time";
  public static final String ORDERED = "ordered";

  /** The axis of {@code report}'s values, or null when they are not a series. */
  public static SeriesAxis of(TrendReport report) {
    List<String> values = report.versions();
    Map<String, String> at = new LinkedHashMap<>();
    if (report.orderBy() == null && values.size() > 1 && values.stream().allMatch(SeriesOrder::isTime)) {
      values.forEach(v -> at.put(v, SeriesOrder.instantOrNull(v).toString()));
      return new SeriesAxis(TIME, report.by() + " (spaced by time; a gap in the line is a " + report.by()
          + " without a run)", at);
    }
    if (report.orderBy() != null && values.size() > 1) {
      for (int i = 0; i < values.size(); i++) {
        at.put(values.get(i), Integer.toString(i));
      }
      return new SeriesAxis(ORDERED, report.by() + " in the order of " + report.orderBy()
          + " (--order-by; evenly spaced, not by time)", at);
    }
    return null;
  }
}
