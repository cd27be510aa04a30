package dev.benchlake.analysis.stats;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;

/**
 * Count, sum and sum of squares of integer values (latencies in ns), kept exactly: partial moments
 * of disjoint parts (Spark partitions, runs) merge without any rounding, so the mean and the
 * variance do not depend on how the data was split, and are correctly rounded once at the end:
 * {@code mean = Σx/n}, sample variance {@code (n·Σx² − (Σx)²)/(n(n − 1))} ({@code ddof = 1}, as
 * pandas and R), both computed in exact integer arithmetic before the single division.
 *
 * @param n number of values
 * @param sum Σx
 * @param sumOfSquares Σx²
 */
public record Moments(long n, BigInteger sum, BigInteger sumOfSquares) implements Serializable {
  public static final Moments EMPTY = new Moments(0, BigInteger.ZERO, BigInteger.ZERO);

  /** The moments of {@code values}. */
  public static Moments of(long[] values) {
    Accumulator acc = new Accumulator();
    for (long v : values) {
      acc.add(v);
    }
    return acc.toMoments();
  }

  /** The moments of the union of two disjoint samples. */
  public Moments merge(Moments other) {
    return new Moments(n + other.n, sum.add(other.sum), sumOfSquares.add(other.sumOfSquares));
  }

  /** The arithmetic mean; NaN without values. */
  public double mean() {
    return n == 0 ? Double.NaN : new BigDecimal(sum).divide(BigDecimal.valueOf(n), MathContext.DECIMAL128).doubleValue();
  }

  /** Sample variance ({@code ddof = 1}); NaN below two values. */
  public double sampleVariance() {
    if (n < 2) {
      return Double.NaN;
    }
    BigInteger count = BigInteger.valueOf(n);
    BigInteger numerator = count.multiply(sumOfSquares).subtract(sum.multiply(sum));
    BigInteger denominator = count.multiply(BigInteger.valueOf(n - 1));
    return new BigDecimal(numerator).divide(new BigDecimal(denominator), MathContext.DECIMAL128).doubleValue();
  }

  /** Sample standard deviation ({@code ddof = 1}); NaN below two values. */
  public double sampleStddev() {
    return Math.sqrt(sampleVariance());
  }

  /**
   * Adds values into 128-bit sums (two {@code long}s each), without allocating; not thread-safe.
   * Σx² stays exact while it is below 2^127 (e.g. 10^15 latencies of 100 s).
   */
  public static final class Accumulator {
    private long n;
    private long sumHigh;
    private long sumLow;
    private long squaresHigh;
    private long squaresLow;

    public void add(long value) {
      n++;
      long low = sumLow + value;
      sumHigh += (value >> 63) + (Long.compareUnsigned(low, sumLow) < 0 ? 1 : 0);
      sumLow = low;
      long squareLow = value * value;
      long squareHigh = Math.multiplyHigh(value, value);
      low = squaresLow + squareLow;
      squaresHigh += squareHigh + (Long.compareUnsigned(low, squaresLow) < 0 ? 1 : 0);
      squaresLow = low;
      if (squaresHigh < 0) {
        throw new ArithmeticException("sum of squared latencies exceeds 2^127");
      }
    }

    public Moments toMoments() {
      return new Moments(n, toBig(sumHigh, sumLow), toBig(squaresHigh, squaresLow));
    }

    private static BigInteger toBig(long high, long low) {
      return BigInteger.valueOf(high).shiftLeft(64).add(new BigInteger(Long.toUnsignedString(low)));
    }
  }
}
