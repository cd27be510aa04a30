package dev.benchlake.analysis.engine;

/**
 * Log-linear buckets over {@code long} values (HdrHistogram's layout): values below
 * 2^{@value #SUB_BITS} have a bucket each; above, every power-of-two range is split into
 * 2^{@value #SUB_BITS} equal buckets, so a bucket spans at most 1/256 (0.4 %) of its values.
 * Negative values mirror the positive ones below bucket 0.
 *
 * <p>The only property the engine relies on is that {@link #of} is non-decreasing: every bucket
 * is an interval of values, so buckets can be ordered, counted and sorted independently and
 * still describe one sorted sequence. They are fine enough that a bucket rarely holds more than
 * a few percent of a latency distribution, which spreads the sort over partitions.
 */
public final class LatencyBuckets {
  public static final int SUB_BITS = 8;
  private static final long SUB_COUNT = 1L << SUB_BITS;
  /** One past the largest bucket of a non-negative value. */
  private static final long MAGNITUDE_BUCKETS = (64 - SUB_BITS) * SUB_COUNT;

  private LatencyBuckets() {}

  /** The bucket of {@code value}; non-decreasing in {@code value}. */
  public static long of(long value) {
    return value >= 0 ? magnitudeBucket(value) : -1 - magnitudeBucket(~value);
  }

  /** The smallest value in {@code bucket}. */
  public static long lowerBound(long bucket) {
    return bucket >= 0 ? magnitudeLower(bucket) : ~magnitudeUpper(-1 - bucket);
  }

  /** The largest value in {@code bucket}. */
  public static long upperBound(long bucket) {
    return bucket >= 0 ? magnitudeUpper(bucket) : ~magnitudeLower(-1 - bucket);
  }

  private static long magnitudeBucket(long m) {
    if (m < SUB_COUNT) {
      return m;
    }
    int exponent = 63 - Long.numberOfLeadingZeros(m);
    return ((long) (exponent - SUB_BITS + 1) << SUB_BITS) + ((m >>> (exponent - SUB_BITS)) - SUB_COUNT);
  }

  private static long magnitudeLower(long bucket) {
    if (bucket < SUB_COUNT) {
      return bucket;
    }
    long group = bucket >>> SUB_BITS;
    long offset = bucket & (SUB_COUNT - 1);
    return (SUB_COUNT + offset) << (group - 1);
  }

  private static long magnitudeUpper(long bucket) {
    return bucket + 1 >= MAGNITUDE_BUCKETS ? Long.MAX_VALUE : magnitudeLower(bucket + 1) - 1;
  }
}
