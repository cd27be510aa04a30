package dev.benchlake.analysis.stats;

/**
 * Fisher's exact test on a 2×2 table (errors and successes of two groups), two-sided:
 * the sum of the hypergeometric probabilities of every table with the same margins that is no
 * more likely than the observed one, with scipy's relative tolerance of 10⁻⁷ for ties in
 * probability ({@code scipy.stats.fisher_exact(table).pvalue}).
 *
 * <p>The probabilities are built by the ratio recurrence
 * {@code P(x+1)/P(x) = (K − x)(n − x)/((x + 1)(N − K − n + x + 1))} in log space and normalised
 * by their sum, so no factorial or binomial coefficient is ever formed: exact enough for tables
 * of billions of tasks. A table with no errors (or no tasks) in either group has p = 1.
 */
public final class FisherExact {
  private static final double RELATIVE_TOLERANCE = 1 + 1e-7;

  private FisherExact() {}

  /**
   * @param errorsA failures in the first group, {@code okA} its successes; likewise for B
   */
  public static double twoSided(long errorsA, long okA, long errorsB, long okB) {
    if (errorsA < 0 || okA < 0 || errorsB < 0 || okB < 0) {
      throw new IllegalArgumentException("negative count in a 2x2 table");
    }
    long total = errorsA + okA + errorsB + okB;
    long errors = errorsA + errorsB;
    long sizeA = errorsA + okA;
    long low = Math.max(0, sizeA - (total - errors));
    long high = Math.min(errors, sizeA);
    if (low == high) {
      return 1.0;
    }
    // First pass: the log-weight of the observed table and the largest log-weight.
    double logObserved = 0;
    double logMax = 0;
    double logW = 0;
    for (long x = low; x <= high; x++) {
      if (x > low) {
        logW += logRatio(x - 1, errors, sizeA, total);
      }
      if (x == errorsA) {
        logObserved = logW;
      }
      logMax = Math.max(logMax, logW);
    }
    // Second pass: sum all weights and those no likelier than the observed table.
    double threshold = Math.exp(logObserved - logMax) * RELATIVE_TOLERANCE;
    double sum = 0;
    double tail = 0;
    logW = 0;
    for (long x = low; x <= high; x++) {
      if (x > low) {
        logW += logRatio(x - 1, errors, sizeA, total);
      }
      double w = Math.exp(logW - logMax);
      sum += w;
      if (w <= threshold) {
        tail += w;
      }
    }
    return Math.min(1.0, tail / sum);
  }

  /** log(P(x + 1)/P(x)) for the hypergeometric distribution (N, K, n). */
  private static double logRatio(long x, long k, long n, long population) {
    return Math.log((double) (k - x) * (n - x)) - Math.log((double) (x + 1) * (population - k - n + x + 1));
  }
}
