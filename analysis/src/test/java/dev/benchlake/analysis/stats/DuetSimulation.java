package dev.benchlake.analysis.stats;

import java.util.SplittableRandom;
import org.apache.commons.math3.distribution.BinomialDistribution;

/**
 * Pairs of runs as a duet takes them, for the calibration tests of the paired analysis: every
 * round the machine's level swings ({@code machineSd} on the log scale, 0.2 here: the 15–25 %
 * between runs measured on a cloud VM) and both runs of the round share that swing; what is left
 * of each pair's log ratio is {@code N(ln θ, pairSd²)} (0.008–0.02 measured for a duet, up to 0.3
 * where the sides do not run at the same moment).
 */
final class DuetSimulation {
  static final double MACHINE_SD = 0.2;

  private DuetSimulation() {}

  /** Fills {@code baseline} and {@code candidate} with the figures of one pair per index. */
  static void fillPairs(SplittableRandom random, double[] baseline, double[] candidate, double theta, double pairSd) {
    double logTheta = Math.log(theta);
    // Each side's own noise is pairSd/√2, so that their difference has SD pairSd.
    double own = pairSd / Math.sqrt(2);
    for (int i = 0; i < baseline.length; i++) {
      double machine = MACHINE_SD * random.nextGaussian();
      baseline[i] = 1000 * Math.exp(machine + own * random.nextGaussian());
      candidate[i] = 1000 * Math.exp(machine + logTheta + own * random.nextGaussian());
    }
  }

  /**
   * The most events of probability {@code rate} that {@code trials} may show before the rate is
   * refuted: the one-sided binomial test at 10⁻³ (a false alarm of the suite once in a thousand).
   */
  static int mostAt(double rate, int trials) {
    return new BinomialDistribution(null, trials, rate).inverseCumulativeProbability(1 - 1e-3);
  }

  /** Whether θ lies outside the open equivalence band: calling it equivalent would be false. */
  static boolean outsideTheBand(double theta, double margin) {
    return Math.abs(Math.log(theta)) >= Math.log1p(margin) - 1e-12;
  }
}
