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
  };

  /** A value in [a, b]. */
  public abstract long next(SplittableRandom random, long a, long b);

  /** Its name on the command line and in manifests. */
  public String id() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
