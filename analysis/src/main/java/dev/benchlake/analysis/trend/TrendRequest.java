package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.stats.Correction;

/**
 * What {@code benchlake trend} follows and how.
 *
 * @param by the run dimension or label that tells versions apart, e.g. {@code db_major}
 * @param base the value of {@code by} every other is relative to, e.g. {@code 11}; null: the first
 *     version in order
 * @param where a run selector ({@code key=value,…}); null or blank: every run
 * @param groups how steps are grouped
 * @param alpha significance level of the flags
 * @param margin practical margin as a fraction: changes smaller than this are neither flagged
 *     nor noise worth a mark
 * @param correction how the p-values of all consecutive-version tests are adjusted together
 * @param changePointAlpha significance level of each change point, on its own: a report tests
 *     every step for one, so it is stricter than the comparisons' (see
 *     {@link dev.benchlake.analysis.stats.EDivisive})
 */
public record TrendRequest(String by, String base, TrendMetric metric, String where, StepGroups groups, double alpha,
    double margin, Correction correction, double changePointAlpha) {
  public static final double DEFAULT_ALPHA = 0.05;
  /** Pure noise gives a change point in about 1 % of steps (Apache Otava's default is 0.001). */
  public static final double DEFAULT_CHANGE_POINT_ALPHA = 0.01;
  public static final double DEFAULT_MARGIN = 0.05;
  /** {@code --by date}: a run's label {@code date}, else the UTC day of its {@code started_at}. */
  public static final String BY_DATE = "date";

  public TrendRequest {
    if (!(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException("alpha must be in (0, 1), not " + alpha);
    }
    if (!(margin >= 0 && margin < 1)) {
      throw new IllegalArgumentException("margin must be in [0, 1), not " + margin);
    }
    if (!(changePointAlpha > 0 && changePointAlpha < 1)) {
      throw new IllegalArgumentException("change-point alpha must be in (0, 1), not " + changePointAlpha);
    }
  }

  /** {@code metric} by {@code by} relative to {@code base}, every other setting at its default. */
  public static TrendRequest of(String by, String base, String metric) {
    return new TrendRequest(by, base, TrendMetric.parse(metric), null, StepGroups.builtIn(), DEFAULT_ALPHA, DEFAULT_MARGIN,
        Correction.HOLM, DEFAULT_CHANGE_POINT_ALPHA);
  }

  public TrendRequest withBase(String version) {
    return new TrendRequest(by, version, metric, where, groups, alpha, margin, correction, changePointAlpha);
  }

  public TrendRequest withWhere(String selector) {
    return new TrendRequest(by, base, metric, selector, groups, alpha, margin, correction, changePointAlpha);
  }

  public TrendRequest withGroups(StepGroups stepGroups) {
    return new TrendRequest(by, base, metric, where, stepGroups, alpha, margin, correction, changePointAlpha);
  }

  public TrendRequest withAlpha(double level) {
    return new TrendRequest(by, base, metric, where, groups, level, margin, correction, changePointAlpha);
  }

  public TrendRequest withMargin(double fraction) {
    return new TrendRequest(by, base, metric, where, groups, alpha, fraction, correction, changePointAlpha);
  }

  public TrendRequest withCorrection(Correction method) {
    return new TrendRequest(by, base, metric, where, groups, alpha, margin, method, changePointAlpha);
  }

  public TrendRequest withChangePointAlpha(double level) {
    return new TrendRequest(by, base, metric, where, groups, alpha, margin, correction, level);
  }
}
