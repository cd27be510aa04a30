package dev.benchlake.analysis.stats;

/**
 * Quantiles by numpy's default definition ({@code numpy.quantile(x, p)}, {@code method="linear"},
 * R's type 7): for {@code n} sorted values and probability {@code p} the virtual position is
 * {@code h = (n − 1)·p} (0-based, computed in double precision); the quantile interpolates between
 * the values at ranks {@code ⌊h⌋} and {@code ⌊h⌋ + 1} with weight {@code h − ⌊h⌋}, and is the last
 * value when {@code h ≥ n − 1}.
 *
 * <p>The interpolation reproduces numpy's {@code _lerp} bit for bit, including its switch to
 * {@code b − (b − a)(1 − t)} for {@code t ≥ 0.5}, so that results can be compared with numpy
 * exactly rather than within a tolerance. Integer inputs follow numpy's int64 path: the difference
 * {@code b − a} is taken in integers first.
 */
public final class LinearQuantile {
  private LinearQuantile() {}

  /** Where quantile {@code p} of {@code n} sorted values lies: two 0-based ranks and a weight. */
  public record Position(long lowerRank, long upperRank, double weight) {
    /** The quantile, given the values at {@link #lowerRank} and {@link #upperRank}. */
    public double interpolate(long lowerValue, long upperValue) {
      return lerp(lowerValue, upperValue, weight);
    }
  }

  /**
   * @param n number of values, at least 1
   * @param p probability in [0, 1]
   */
  public static Position position(long n, double p) {
    if (n < 1) {
      throw new IllegalArgumentException("no values: the quantile of an empty sample is undefined");
    }
    if (!(p >= 0 && p <= 1)) {
      throw new IllegalArgumentException("probability " + p + " is not in [0, 1]");
    }
    double h = (n - 1) * p;
    if (h >= n - 1) {
      return new Position(n - 1, n - 1, 0);
    }
    long lower = (long) Math.floor(h);
    return new Position(lower, lower + 1, h - lower);
  }

  /** numpy's {@code _lerp(a, b, t)} for int64 inputs. */
  public static double lerp(long a, long b, double t) {
    double diff = (double) (b - a);
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
  }

  /** numpy's {@code _lerp(a, b, t)} for float64 inputs. */
  public static double lerp(double a, double b, double t) {
    double diff = b - a;
    return t >= 0.5 ? b - diff * (1 - t) : a + diff * t;
  }

  /** Quantile {@code p} of {@code sorted} (ascending, not empty). */
  public static double of(long[] sorted, double p) {
    Position at = position(sorted.length, p);
    return at.interpolate(sorted[(int) at.lowerRank()], sorted[(int) at.upperRank()]);
  }

  /** Quantile {@code p} of {@code sorted} (ascending, not empty). */
  public static double of(double[] sorted, double p) {
    Position at = position(sorted.length, p);
    return lerp(sorted[(int) at.lowerRank()], sorted[(int) at.upperRank()], at.weight());
  }
}
