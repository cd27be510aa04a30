package dev.benchlake.analysis.stats;

/**
 * Two-sided Mann–Whitney U test (Wilcoxon rank-sum) of a candidate sample against a baseline.
 *
 * <p><b>Statistic.</b> {@code U} is the candidate's: {@code U = R − n_c(n_c + 1)/2} where
 * {@code R} is the sum of the candidate's mid-ranks in the pooled sample (tied values share the
 * mean of the ranks they span). Equivalently {@code U = #(c > b) + ½·#(c = b)} over all
 * candidate/baseline pairs, so {@code U/(n_c·n_b)} is P(candidate > baseline) with ties split; this
 * is {@code scipy.stats.mannwhitneyu(candidate, baseline).statistic}. (commons-math3 3.6.1 returns
 * max(U₁, U₂) instead, and its p-value overflows to NaN near 2M values per side: not used.)
 *
 * <p><b>p-value.</b> When {@code n_c + n_b ≤} {@value #EXACT_MAX_TOTAL}: exact, from the
 * permutation distribution of the candidate's mid-rank sum over all {@code C(N, n_c)} ways to split
 * the pooled values (with no ties this is the classical exact null distribution, scipy's
 * {@code method="exact"}; with ties it is the exact conditional distribution given the ties), as
 * {@code min(1, 2·min(P(R ≤ r), P(R ≥ r)))}. Otherwise the normal approximation with tie-corrected
 * variance {@code σ² = n_c·n_b/12·((N + 1) − Σ(t³ − t)/(N(N − 1)))} and continuity correction:
 * {@code z = (|U − n_c·n_b/2| − ½)/σ}, {@code p = min(1, 2·P(Z > z))} (scipy's
 * {@code method="asymptotic"}). When every value is tied ({@code σ = 0}) p is 1.
 */
public final class MannWhitneyU {
  /** Largest pooled size for which the p-value is exact. */
  public static final int EXACT_MAX_TOTAL = 50;

  /** How the p-value was computed. */
  public enum Method {
    EXACT, NORMAL
  }

  /**
   * @param u the candidate's U
   * @param p two-sided p-value
   */
  public record Result(double u, double p, Method method) {}

  private MannWhitneyU() {}

  /** The test on two samples; both must be non-empty. */
  public static Result test(double[] candidate, double[] baseline) {
    requireNonEmpty(candidate.length, baseline.length);
    MidRanks ranks = MidRanks.of(candidate, baseline);
    long doubledRankSum = 0;
    for (int r : ranks.firstDoubled) {
      doubledRankSum += r;
    }
    long nc = candidate.length;
    double u = doubledRankSum / 2.0 - nc * (nc + 1) / 2.0;
    if (candidate.length + baseline.length <= EXACT_MAX_TOTAL) {
      return new Result(u, exactP(ranks.pooledDoubled, candidate.length, doubledRankSum), Method.EXACT);
    }
    return normal(nc, baseline.length, u, ranks.tieTerm);
  }

  /**
   * The normal approximation from sufficient statistics, for samples too large to hold.
   *
   * @param u the candidate's U
   * @param tieTerm Σ (t³ − t) over groups of tied values in the pooled sample
   */
  public static Result normal(long nCandidate, long nBaseline, double u, double tieTerm) {
    requireNonEmpty(nCandidate, nBaseline);
    double sigma = sigma(nCandidate, nBaseline, tieTerm);
    if (!(sigma > 0)) {
      return new Result(u, 1.0, Method.NORMAL);
    }
    double z = (Math.abs(u - nCandidate * (double) nBaseline / 2) - 0.5) / sigma;
    return new Result(u, Math.min(1.0, 2 * NormalTail.survival(z)), Method.NORMAL);
  }

  /** The tie-corrected standard deviation of U under the null hypothesis. */
  public static double sigma(long n1, long n2, double tieTerm) {
    double n = (double) n1 + n2;
    double tieCorrection = n > 1 ? tieTerm / (n * (n - 1)) : 0;
    double variance = n1 * (double) n2 / 12 * ((n + 1) - tieCorrection);
    return Math.sqrt(Math.max(0, variance));
  }

  private static double exactP(int[] pooledDoubled, int k, long observedDoubledSum) {
    long[] counts = MidRanks.subsetSumCounts(pooledDoubled, k);
    double total = 0;
    double atMost = 0;
    double atLeast = 0;
    for (int s = 0; s < counts.length; s++) {
      total += counts[s];
      if (s <= observedDoubledSum) {
        atMost += counts[s];
      }
      if (s >= observedDoubledSum) {
        atLeast += counts[s];
      }
    }
    return Math.min(1.0, 2 * Math.min(atMost, atLeast) / total);
  }

  private static void requireNonEmpty(long n1, long n2) {
    if (n1 < 1 || n2 < 1) {
      throw new IllegalArgumentException("Mann-Whitney U needs at least one value per sample (got "
          + n1 + " and " + n2 + ")");
    }
  }
}
