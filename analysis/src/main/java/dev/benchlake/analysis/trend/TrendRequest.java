package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.List;

/**
 * What {@code benchlake trend} follows and how.
 *
 * @param by the run dimension or label that tells versions apart, e.g. {@code db_major}
 * @param base the value of {@code by} every other is relative to, e.g. {@code 11}; null: the first
 *     version in order
 * @param where a run selector ({@code key=value,…}); null or blank: every run
 * @param groups how steps are grouped
 * @param settings α, the margin and the correction of the calls ({@link StatisticsSettings})
 * @param changePointAlpha significance level of each change point, on its own: a report tests
 *     every step for one, so it is stricter than the comparisons' (see
 *     {@link dev.benchlake.analysis.stats.EDivisive})
 * @param pairBy the labels that pair a version's runs with the base's ({@code --pair-by round});
 *     empty: duet runs are paired by their round, other runs not at all
 *     ({@link dev.benchlake.analysis.report.Pairing})
 * @param orderBy the runs column or label that orders values of {@code by} that are neither dates nor
 *     versions (a commit by its {@code commit_time}); null: they need none ({@link SeriesOrder})
 */
public record TrendRequest(String by, String base, TrendMetric metric, String where, StepGroups groups,
    StatisticsSettings settings, double changePointAlpha, List<String> pairBy, String orderBy) {
  /** Pure noise gives a change point in about 1 % of steps (Apache Otava's default is 0.001). */
  public static final double DEFAULT_CHANGE_POINT_ALPHA = 0.01;
  /** {@code --by date}: a run's label {@code date}, else the UTC day of its {@code started_at}. */
  public static final String BY_DATE = "date";

  public TrendRequest {
    if (!(changePointAlpha > 0 && changePointAlpha < 1)) {
      throw new IllegalArgumentException("change-point alpha must be in (0, 1), not " + changePointAlpha);
    }
    pairBy = List.copyOf(pairBy);
  }

  /** Without {@code --pair-by} or {@code --order-by}. */
  public TrendRequest(String by, String base, TrendMetric metric, String where, StepGroups groups,
      StatisticsSettings settings, double changePointAlpha) {
    this(by, base, metric, where, groups, settings, changePointAlpha, List.of(), null);
  }

  /** {@code metric} by {@code by} relative to {@code base}, every other setting at its default. */
  public static TrendRequest of(String by, String base, String metric) {
    return new TrendRequest(by, base, TrendMetric.parse(metric), null, StepGroups.builtIn(), StatisticsSettings.DEFAULTS,
        DEFAULT_CHANGE_POINT_ALPHA, List.of(), null);
  }

  public TrendRequest withBase(String version) {
    return new TrendRequest(by, version, metric, where, groups, settings, changePointAlpha, pairBy, orderBy);
  }

  public TrendRequest withWhere(String selector) {
    return new TrendRequest(by, base, metric, selector, groups, settings, changePointAlpha, pairBy, orderBy);
  }

  public TrendRequest withGroups(StepGroups stepGroups) {
    return new TrendRequest(by, base, metric, where, stepGroups, settings, changePointAlpha, pairBy, orderBy);
  }

  public TrendRequest withSettings(StatisticsSettings statistics) {
    return new TrendRequest(by, base, metric, where, groups, statistics, changePointAlpha, pairBy, orderBy);
  }

  /** Pair each version's runs with the base's by these labels ({@code --pair-by}). */
  public TrendRequest withPairBy(List<String> labels) {
    return new TrendRequest(by, base, metric, where, groups, settings, changePointAlpha, labels, orderBy);
  }

  public TrendRequest withOrderBy(String key) {
    return new TrendRequest(by, base, metric, where, groups, settings, changePointAlpha, pairBy, key);
  }

  public TrendRequest withChangePointAlpha(double level) {
    return new TrendRequest(by, base, metric, where, groups, settings, level, pairBy, orderBy);
  }
}
