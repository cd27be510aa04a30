package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.CrossoverLogRatio;
import dev.benchlake.analysis.stats.HuberLogRatio;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.StatisticsSettings;

/**
 * θ as a report shows it: the change of one figure between the two sides ({@link RatioEffect}: the
 * ratio of the geometric means of the per-run figures, Welch's t on their logs, today) with its
 * intervals and p-value. Null and {@link Range#UNBOUNDED} where undefined ({@link #NONE}).
 *
 * @param ci95 the 95 % interval
 * @param ci90 the 90 % interval
 * @param ciDecision the 1 − α interval, whatever α: the one faster/slower rest on and every table
 *     and sentence shows
 * @param ciEquivalence the 1 − 2α interval, whatever α: the one equivalence rests on
 * @param p two-sided p of H0: θ = 1
 * @param betweenRunSdLog the spread of the runs' log figures (pooled SD)
 * @param cpuSetRatio where pairs swap CPU sets and the set was fitted ({@link CrossoverLogRatio}),
 *     the set's effect on the ratio ({@link CrossoverLogRatio#setRatio}); else null
 */
public record Estimate(Double ratio, Range ci95, Range ci90, Range ciDecision, Range ciEquivalence, Double p,
    Double betweenRunSdLog, Double cpuSetRatio) {
  /** No estimate: too few runs, or figures without a logarithm. */
  public static final Estimate NONE = new Estimate(null, Range.UNBOUNDED, Range.UNBOUNDED, Range.UNBOUNDED,
      Range.UNBOUNDED, null, null, null);

  public static Estimate of(RatioEffect effect, StatisticsSettings settings) {
    return new Estimate(effect.ratio(), Range.of(effect.interval(0.95)), Range.of(effect.interval(0.90)),
        Range.of(effect.interval(settings.decisionConfidence())),
        Range.of(effect.interval(settings.equivalenceConfidence())), finite(effect.pDifference()),
        finite(effect.betweenRunSdLog()),
        effect instanceof CrossoverLogRatio crossover ? finite(crossover.setRatio())
            : effect instanceof HuberLogRatio huber && huber.setsFitted() ? finite(huber.setRatio()) : null);
  }

  /** Whether the interval shown with θ is too wide for θ to be read as a change ({@link Range#tooNoisyToSay}). */
  public boolean tooNoisyToSay() {
    return ratio != null && ciDecision.tooNoisyToSay();
  }

  static Double finite(double value) {
    return Double.isFinite(value) ? value : null;
  }
}
