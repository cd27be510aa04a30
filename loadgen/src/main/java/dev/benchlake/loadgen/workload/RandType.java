package dev.benchlake.loadgen.workload;

import java.util.SplittableRandom;

/**
 * sysbench's distributions of row ids ({@code --rand-type}), as implemented in sysbench's
 * {@code sb_rand.c}, so that a step here and the same sysbench script hit rows alike.
 */
public enum RandType {
  /** Every id in [a, b] equally likely: {@code a + U[0,1) × (b − a + 1)}. sysbench ≥ 1.1's default. */
  UNIFORM {
    @Override
    public long next(SplittableRandom random, long a, long b) {
      return a + (long) (random.nextDouble() * (b - a + 1));
    }
  },
  /**
   * sysbench 1.0's default ({@code --rand-spec-iter=12 --rand-spec-pct=1 --rand-spec-res=75}):
   * 75 % of the values fall uniformly in the central 1 % of [a, b], the other 25 % follow a
   * bell curve (a mean of 12 uniforms) over [a, b]. A hot-spot distribution.
   */
  SPECIAL {
    private static final int ITERATIONS = 12;
    private static final double PCT = 1;
    private static final double RES = 75;

    @Override
    public long next(SplittableRandom random, long a, long b) {
      double t = b - a;
      double rangeSize = t * (100.0 / (100.0 - RES));
      double rnd = random.nextDouble();
      double res = rnd * rangeSize;
      if (res < t) {
        double sum = 0;
        for (int i = 0; i < ITERATIONS; i++) {
          sum += random.nextDouble();
        }
        return a + (long) (sum * t / ITERATIONS);
      }
      double d = t * PCT / 100.0;
      res = rnd * (d + 1);
      res += t / 2 - t * PCT / 200.0;
      return a + (long) res;
    }
  },
  /**
   * sysbench's {@code zipfian} ({@code --rand-zipfian-exp=0.8}): value {@code a + r − 1} where
   * rank r in 1..n (n = b − a + 1) has probability ∝ r^−0.8. Drawn by rejection-inversion
   * (Hörmann and Derflinger 1996), the method sysbench's sb_rand.c uses: exact, O(1) per value,
   * no table of n weights.
   */
  ZIPFIAN {
    static final double EXPONENT = 0.8;

    @Override
    public long next(SplittableRandom random, long a, long b) {
      long n = b - a + 1;
      double hX1 = hIntegral(1.5) - 1;
      double hN = hIntegral(n + 0.5);
      double s = 2 - hIntegralInverse(hIntegral(2.5) - h(2));
      while (true) {
        double u = hN + random.nextDouble() * (hX1 - hN);
        double x = hIntegralInverse(u);
        long k = Math.max(1, Math.min(n, (long) (x + 0.5)));
        if (k - x <= s || u >= hIntegral(k + 0.5) - h(k)) {
          return a + k - 1;
        }
      }
    }

    private double h(double x) {
      return Math.exp(-EXPONENT * Math.log(x));
    }

    /** ∫ h from 1 to x, written so that it stays accurate near exponent 1. */
    private double hIntegral(double x) {
      double logX = Math.log(x);
      return expm1OverX((1 - EXPONENT) * logX) * logX;
    }

    private double hIntegralInverse(double x) {
      double t = Math.max(-1, x * (1 - EXPONENT));
      return Math.exp(log1pOverX(t) * x);
    }

    private static double expm1OverX(double x) {
      return Math.abs(x) > 1e-8 ? Math.expm1(x) / x : 1 + x / 2 * (1 + x / 3 * (1 + x / 4));
    }

    private static double log1pOverX(double x) {
      return Math.abs(x) > 1e-8 ? Math.log1p(x) / x : 1 - x * (0.5 - x * (1.0 / 3 - 0.25 * x));
    }
  };

  /** A value in [a, b]. */
  public abstract long next(SplittableRandom random, long a, long b);

  /** Its name on the command line and in manifests. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
