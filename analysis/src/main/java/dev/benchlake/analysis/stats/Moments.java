package dev.benchlake.analysis.stats;

/**
 * Count, mean and sum of squared deviations of a sample, mergeable: partial moments of disjoint
 * parts (Spark partitions, runs) combine exactly as if computed in one pass (Chan, Golub and
 * LeVeque's pairwise update), without the cancellation of the textbook {@code Σx² − n·mean²}.
 *
 * @param n number of values
 * @param mean arithmetic mean (0 when {@code n = 0})
 * @param m2 sum of squared deviations from the mean
 */
public record Moments(long n, double mean, double m2) {
  public static final Moments EMPTY = new Moments(0, 0, 0);

  /** The moments of {@code values} (Welford's update, one pass). */
  public static Moments of(long[] values) {
    Accumulator acc = new Accumulator();
    for (long v : values) {
      acc.add(v);
    }
    return acc.toMoments();
  }

  /** The moments of the union of two disjoint samples. */
  public Moments merge(Moments other) {
    if (other.n == 0) {
      return this;
    }
    if (n == 0) {
      return other;
    }
    long total = n + other.n;
    double delta = other.mean - mean;
    double mergedMean = mean + delta * ((double) other.n / total);
    double mergedM2 = m2 + other.m2 + delta * delta * ((double) n * other.n / total);
    return new Moments(total, mergedMean, mergedM2);
  }

  /** Sample variance ({@code ddof = 1}, as pandas and R); NaN below two values. */
  public double sampleVariance() {
    return n < 2 ? Double.NaN : Math.max(0, m2 / (n - 1));
  }

  /** Sample standard deviation ({@code ddof = 1}); NaN below two values. */
  public double sampleStddev() {
    return Math.sqrt(sampleVariance());
  }

  /** Welford's one-pass update; not thread-safe. */
  public static final class Accumulator {
    private long n;
    private double mean;
    private double m2;

    public void add(long value) {
      n++;
      double delta = value - mean;
      mean += delta / n;
      m2 += delta * (value - mean);
    }

    public Moments toMoments() {
      return n == 0 ? EMPTY : new Moments(n, mean, m2);
    }
  }
}
