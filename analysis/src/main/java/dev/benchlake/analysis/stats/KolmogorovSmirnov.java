package dev.benchlake.analysis.stats;

import org.apache.commons.math3.stat.inference.KolmogorovSmirnovTest;

/**
 * Two-sample Kolmogorov–Smirnov test, two-sided: {@code D = max_x |F_c(x) − F_b(x)|} over the
 * right-continuous empirical CDFs, evaluated after each distinct value (tied values enter
 * together, as scipy's {@code searchsorted(side="right")}).
 *
 * <p>The p-value follows {@code scipy.stats.ks_2samp(method="auto")}: exact when both samples
 * have at most {@value #EXACT_MAX_N} values — the proportion of monotone lattice paths from
 * (0, 0) to (n₁, n₂) that leave the band {@code |i/n₁ − j/n₂| < D} (Hodges 1958), computed as a
 * probability directly so that small p-values keep their precision — and otherwise Smirnov's
 * asymptotic form, the one-sample distribution {@code P(D_m ≥ D)} with
 * {@code m = round(n₁n₂/(n₁ + n₂))}. That one-sample tail is commons-math3's {@code 1 − cdf}
 * where it is above 10⁻³ and twice the exact one-sided Smirnov–Birnbaum–Tingey tail below, where
 * {@code 1 − cdf} loses all precision. Like scipy, the exact p-value assumes no ties.
 */
public final class KolmogorovSmirnov {
  /** Largest sample size (of either sample) with an exact p-value. */
  public static final int EXACT_MAX_N = 10_000;
  private static final double TAIL_SWITCH = 1e-3;

  /** How the p-value was computed. */
  public enum Method {
    EXACT, ASYMPTOTIC
  }

  public record Result(double d, double p, Method method) {}

  private KolmogorovSmirnov() {}

  /** The test on two sorted (ascending) non-empty samples. */
  public static Result test(long[] sortedFirst, long[] sortedSecond) {
    return fromScaledStatistic(scaledStatistic(sortedFirst, sortedSecond), sortedFirst.length, sortedSecond.length);
  }

  /**
   * {@code D·n₁·n₂} as an exact integer: {@code max |C₁(x)·n₂ − C₂(x)·n₁|} where {@code C} counts
   * values {@code ≤ x}.
   */
  public static long scaledStatistic(long[] sortedFirst, long[] sortedSecond) {
    long n1 = sortedFirst.length;
    long n2 = sortedSecond.length;
    int i = 0;
    int j = 0;
    long max = 0;
    while (i < n1 || j < n2) {
      long x = j >= n2 || (i < n1 && sortedFirst[i] <= sortedSecond[j]) ? sortedFirst[i] : sortedSecond[j];
      while (i < n1 && sortedFirst[i] == x) {
        i++;
      }
      while (j < n2 && sortedSecond[j] == x) {
        j++;
      }
      max = Math.max(max, Math.abs(i * n2 - j * n1));
    }
    return max;
  }

  /**
   * The test from {@link #scaledStatistic} and the sample sizes (both at least 1).
   */
  public static Result fromScaledStatistic(long scaled, long n1, long n2) {
    if (n1 < 1 || n2 < 1) {
      throw new IllegalArgumentException("Kolmogorov-Smirnov needs at least one value per sample");
    }
    double d = scaled / ((double) n1 * n2);
    if (scaled == 0) {
      return new Result(0, 1.0, Math.max(n1, n2) <= EXACT_MAX_N ? Method.EXACT : Method.ASYMPTOTIC);
    }
    if (Math.max(n1, n2) <= EXACT_MAX_N) {
      return new Result(d, exactP((int) n1, (int) n2, scaled), Method.EXACT);
    }
    double m = Math.max(n1, n2);
    double n = Math.min(n1, n2);
    long effective = Math.round(m * n / (m + n));
    return new Result(d, oneSampleSurvival(d, effective), Method.ASYMPTOTIC);
  }

  /**
   * P(the statistic of a random split ≥ observed): the proportion of lattice paths that touch a
   * point with {@code |i·n₂ − j·n₁| ≥ bound} ({@code bound = D·n₁·n₂}). {@code q[j]} holds, for
   * the current column {@code i}, the probability that a uniformly random path to {@code (i, j)}
   * has already left the band; a path reaches {@code (i, j)} from the left with probability
   * {@code i/(i + j)}.
   */
  static double exactP(int n1, int n2, long bound) {
    double[] q = new double[n2 + 1];
    for (int j = 0; j <= n2; j++) {
      q[j] = outside(0, j, n1, n2, bound) || (j > 0 && q[j - 1] == 1) ? 1 : 0;
    }
    for (int i = 1; i <= n1; i++) {
      q[0] = outside(i, 0, n1, n2, bound) ? 1 : q[0];
      for (int j = 1; j <= n2; j++) {
        q[j] = outside(i, j, n1, n2, bound) ? 1 : (i * q[j] + j * q[j - 1]) / (i + j);
      }
    }
    return Math.min(1.0, q[n2]);
  }

  private static boolean outside(long i, long j, long n1, long n2, long bound) {
    return Math.abs(i * n2 - j * n1) >= bound;
  }

  /**
   * P(D_n ≥ d) for the one-sample statistic of {@code n} values ({@code scipy.stats.kstwo.sf}).
   */
  static double oneSampleSurvival(double d, long n) {
    if (d <= 0) {
      return 1;
    }
    if (d >= 1) {
      return 0;
    }
    if (2 * Math.exp(-2 * n * d * d) == 0) {
      // Beyond double range: the Dvoretzky–Kiefer–Wolfowitz–Massart bound 2·exp(−2nd²) underflows.
      return 0;
    }
    if (n <= Integer.MAX_VALUE) {
      double q = 1 - new KolmogorovSmirnovTest().cdf(d, (int) n);
      if (q >= TAIL_SWITCH) {
        return Math.min(1.0, q);
      }
    }
    return Math.min(1.0, 2 * smirnovOneSided(d, n));
  }

  /**
   * P(D_n⁺ ≥ d), exactly: {@code d·Σ_{j=0}^{⌊n(1−d)⌋} C(n, j)(1 − d − j/n)^{n−j}(d + j/n)^{j−1}}
   * (Birnbaum and Tingey 1951). Every term is positive, so the sum — kept in log space, scaled by
   * its running maximum — does not cancel.
   */
  static double smirnovOneSided(double d, long n) {
    long last = (long) Math.floor(n * (1 - d));
    double logBinomial = 0;
    double logMax = Double.NEGATIVE_INFINITY;
    double scaledSum = 0;
    for (long j = 0; j <= last; j++) {
      if (j > 0) {
        logBinomial += Math.log((double) (n - j + 1) / j);
      }
      double rest = 1 - d - (double) j / n;
      if (rest <= 0) {
        break;
      }
      double logTerm = logBinomial + (n - j) * Math.log(rest) + (j - 1) * Math.log(d + (double) j / n);
      if (logTerm > logMax) {
        scaledSum = scaledSum * Math.exp(logMax - logTerm) + 1;
        logMax = logTerm;
      } else {
        scaledSum += Math.exp(logTerm - logMax);
      }
    }
    return scaledSum == 0 ? 0 : d * scaledSum * Math.exp(logMax);
  }
}
