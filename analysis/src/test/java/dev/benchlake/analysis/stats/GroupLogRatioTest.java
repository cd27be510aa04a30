package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.stats.GroupLogRatio.PairedStep;
import dev.benchlake.analysis.stats.GroupLogRatio.UnpairedStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A group's change from steps measured in different rounds (issue 47): pinned to an explicit stacked
 * regression with a CR2 sandwich clustered by round ({@code make_group_clusters_reference.py}), equal
 * to the old analysis of per-round (per-run) group figures where every round has every step, and
 * covering 95 % in simulated version studies whose steps drop out after random rounds.
 */
class GroupLogRatioTest {
  private static final double TOLERANCE = 1e-9;
  private static final double NAN = Double.NaN;

  /** The reference's per-round log ratios, a step a row, rounds 1..8; NaN: the step had dropped out. */
  private static final double[][] D = {
      {-0.10, -0.02, -0.15, -0.08, -0.12, -0.04, -0.09, -0.11},
      {0.05, 0.11, 0.02, 0.09, 0.04, 0.08, NAN, NAN},
      {-0.20, -0.14, -0.24, -0.17, NAN, NAN, NAN, NAN},
      {0.01, 0.06, -0.03, 0.04, 0.00, 0.05, 0.02, NAN}};
  private static final double[][] BASE = {
      {4.60, 4.65, 4.58, 4.70, 4.62},
      {3.00, 3.10, 2.95, NAN, NAN},
      {5.20, 5.26, NAN, 5.15, 5.22}};
  private static final double[][] CANDIDATE = {
      {4.50, 4.57, 4.49, 4.55},
      {3.05, NAN, 3.12, 3.00},
      {5.10, 5.18, 5.12, NAN}};

  /** Steps from a matrix of log ratios, a step a row; with {@code sets}, odd rounds' baseline on set one. */
  private static List<PairedStep> paired(double[][] d, boolean sets) {
    List<PairedStep> steps = new ArrayList<>();
    for (double[] row : d) {
      int[] rounds = IntStream.range(0, row.length).filter(p -> !Double.isNaN(row[p])).toArray();
      boolean[] onSetOne = new boolean[rounds.length];
      for (int i = 0; i < rounds.length; i++) {
        onSetOne[i] = rounds[i] % 2 == 0;
      }
      steps.add(new PairedStep(IntStream.of(rounds).mapToObj(p -> "round=" + (p + 1)).toList(),
          IntStream.of(rounds).mapToDouble(p -> row[p]).toArray(), sets ? onSetOne : null));
    }
    return steps;
  }

  private static Map<String, Double> runs(double[] row, String side) {
    Map<String, Double> logs = new LinkedHashMap<>();
    for (int r = 0; r < row.length; r++) {
      if (!Double.isNaN(row[r])) {
        logs.put(side + r, row[r]);
      }
    }
    return logs;
  }

  private static void assertEffect(RatioEffect effect, double theta, double se, double df, double low,
      double high) {
    assertThat(effect.meanLogDifference()).isCloseTo(theta, within(TOLERANCE));
    Interval ci = effect.interval(0.95);
    assertThat(ci.low()).isCloseTo(low, within(TOLERANCE));
    assertThat(ci.high()).isCloseTo(high, within(TOLERANCE));
    if (effect instanceof RoundClusteredLogRatio r) {
      assertThat(r.seLog()).isCloseTo(se, within(TOLERANCE));
      assertThat(r.df()).isCloseTo(df, within(1e-9 * df));
    } else {
      assertThat(((LogRatio) effect).seLog()).isCloseTo(se, within(TOLERANCE));
      assertThat(((LogRatio) effect).df()).isCloseTo(df, within(1e-9 * df));
    }
  }

  /** {@code python3 analysis/src/test/python/make_group_clusters_reference.py}, numpy's matrices. */
  @Test
  void stepsDroppingOutAtDifferentRoundsMatchTheStackedRegressionsCr2() {
    RoundClusteredLogRatio plain = GroupLogRatio.paired(paired(D, false));
    assertEffect(plain, -0.0474553571428571, 0.014900297487111, 5.04633597054588, 0.917913379977863,
        0.990784263463956);
    assertThat(plain.rounds()).isEqualTo(8);
    RoundClusteredLogRatio sets = GroupLogRatio.paired(paired(D, true));
    assertEffect(sets, -0.0465625, 0.00813777377785528, 4.25175387556744, 0.933664025406406, 0.975810980647381);
    assertThat(sets.parameters()).isEqualTo(2);
    List<UnpairedStep> steps = IntStream.range(0, BASE.length)
        .mapToObj(s -> new UnpairedStep(runs(BASE[s], "b"), runs(CANDIDATE[s], "c"))).toList();
    assertEffect(GroupLogRatio.unpaired(steps), -0.0455555555555556, 0.0269561435279479, 4.82413810733014,
        0.89081790596145, 1.02480682529315);
  }

  /** The group's θ is the mean of its steps' own θ, exactly what each step's least squares gives. */
  @Test
  void theGroupsChangeIsTheGeometricMeanOfItsStepsOwnPairedChanges() {
    for (boolean sets : new boolean[] {false, true}) {
      List<PairedStep> steps = paired(D, sets);
      double mean = steps.stream().mapToDouble(s -> PairedEffect.of(s.logRatios(), s.baselineOnSetOne())
          .meanLogDifference()).average().orElseThrow();
      assertThat(GroupLogRatio.paired(steps).meanLogDifference()).isCloseTo(mean, within(1e-15));
    }
  }

  /**
   * Every round with every step: the old interval of the per-round group log ratios exactly (one-sample
   * t; the crossover with as many rounds each way; Welch for runs), and with 11 rounds one way and 10 the
   * other the crossover's variance times the documented factor, its df within 0.1 of n − 2.
   */
  @Test
  void withoutDropOutsItIsTheOldIntervalOfPerRoundGroupFigures() {
    Random random = new Random(47);
    for (int rounds : new int[] {8, 21}) {
      double[][] d = new double[5][rounds];
      for (int p = 0; p < rounds; p++) {
        double shared = 0.03 * random.nextGaussian();
        for (int s = 0; s < d.length; s++) {
          d[s][p] = 0.1 * s + shared + (p % 2 == 0 ? 0.02 : -0.02) + 0.02 * random.nextGaussian();
        }
      }
      double[] perRound = new double[rounds];
      boolean[] onSetOne = new boolean[rounds];
      for (int p = 0; p < rounds; p++) {
        final int round = p;
        perRound[p] = IntStream.range(0, d.length).mapToDouble(s -> d[s][round]).average().orElseThrow();
        onSetOne[p] = p % 2 == 0;
      }
      PairedLogRatio old = PairedLogRatio.ofLogRatios(perRound);
      RoundClusteredLogRatio now = GroupLogRatio.paired(paired(d, false));
      assertThat(now.seLog()).isCloseTo(old.seLog(), within(1e-12));
      assertThat(now.df()).isCloseTo(old.df(), within(1e-9));
      assertThat(now.interval(0.95).low()).isCloseTo(old.interval(0.95).low(), within(1e-12));

      CrossoverLogRatio crossover = CrossoverLogRatio.of(perRound, onSetOne);
      RoundClusteredLogRatio withSets = GroupLogRatio.paired(paired(d, true));
      assertThat(withSets.meanLogDifference()).isCloseTo(crossover.meanLogDifference(), within(1e-15));
      if (rounds % 2 == 0) {
        assertThat(withSets.seLog()).isCloseTo(crossover.seLog(), within(1e-12));
        assertThat(withSets.df()).isCloseTo(crossover.df(), within(1e-9));
        assertThat(withSets.interval(0.95).high()).isCloseTo(crossover.interval(0.95).high(), within(1e-12));
      } else {
        int n1 = (rounds + 1) / 2;
        int n2 = rounds / 2;
        double[] rss = new double[2];
        double m1 = IntStream.range(0, rounds).filter(p -> onSetOne[p]).mapToDouble(p -> perRound[p]).average()
            .orElseThrow();
        double m2 = IntStream.range(0, rounds).filter(p -> !onSetOne[p]).mapToDouble(p -> perRound[p]).average()
            .orElseThrow();
        for (int p = 0; p < rounds; p++) {
          double e = perRound[p] - (onSetOne[p] ? m1 : m2);
          rss[onSetOne[p] ? 0 : 1] += e * e;
        }
        double factor = (rss[0] * n2 / (n1 - 1) + rss[1] * n1 / (n2 - 1)) * (rounds - 2) / ((rss[0] + rss[1]) * rounds);
        assertThat(withSets.seLog() * withSets.seLog()).isCloseTo(crossover.seLog() * crossover.seLog() * factor,
            within(1e-15));
        // Welch's df of the two assignments' means with a common spread, not n − 2 (18.8, not 19, at 11 and 10).
        assertThat(withSets.df()).isCloseTo(Math.pow(1.0 / n1 + 1.0 / n2, 2)
            / (1.0 / (n1 * n1 * (n1 - 1.0)) + 1.0 / (n2 * n2 * (n2 - 1.0))), within(1e-9));
      }

      double[][] base = new double[3][6];
      double[][] candidate = new double[3][7];
      for (double[][] side : List.of(base, candidate)) {
        for (int r = 0; r < side[0].length; r++) {
          double run = 0.1 * random.nextGaussian();
          for (int s = 0; s < side.length; s++) {
            side[s][r] = s + run + 0.05 * random.nextGaussian() + (side == candidate ? 0.1 : 0);
          }
        }
      }
      LogRatio welch = LogRatio.of(groupFigures(base), groupFigures(candidate));
      LogRatio clustered = GroupLogRatio.unpaired(IntStream.range(0, 3)
          .mapToObj(s -> new UnpairedStep(runs(base[s], "b"), runs(candidate[s], "c"))).toList());
      assertThat(clustered.meanLogDifference()).isCloseTo(welch.meanLogDifference(), within(1e-12));
      assertThat(clustered.seLog()).isCloseTo(welch.seLog(), within(1e-12));
      assertThat(clustered.df()).isCloseTo(welch.df(), within(1e-9));
      assertThat(clustered.betweenRunSdLog()).isCloseTo(welch.betweenRunSdLog(), within(1e-12));
    }
  }

  /** Each run's geometric mean over the steps of its figures (the logs given). */
  private static double[] groupFigures(double[][] logs) {
    return IntStream.range(0, logs[0].length)
        .mapToDouble(r -> Math.exp(IntStream.range(0, logs.length).mapToDouble(s -> logs[s][r]).average().orElseThrow()))
        .toArray();
  }

  /**
   * Simulated version studies, 21 rounds of 4 steps of true log changes N(0, 0.05): a shared swing of
   * 2 % per round (what both sides of a round share in every step), 2 % noise per step and pair, each
   * step dropping out after a random round from the 4th to the 21st; with sets, each step's set effect
   * N(0, 0.03) alternating with the rounds. The 95 % interval covers the true group change (the mean of
   * the steps') within 3 binomial SE of 95 % in 2,000 studies each; the old interval from the rounds
   * every step ran was about 1.6-1.8 times as wide.
   */
  @Test
  void theIntervalCoversTheGroupsTrueChangeWhenStepsDropOut() {
    for (boolean sets : new boolean[] {false, true}) {
      Random random = new Random(sets ? 4748 : 4747);
      int studies = 2000;
      int rounds = 21;
      int covered = 0;
      int oldCovered = 0;
      double width = 0;
      double oldWidth = 0;
      for (int study = 0; study < studies; study++) {
        double[] theta = new double[4];
        double[] set = new double[4];
        int[] last = new int[4];
        for (int s = 0; s < 4; s++) {
          theta[s] = 0.05 * random.nextGaussian();
          set[s] = sets ? 0.03 * random.nextGaussian() : 0;
          last[s] = 4 + random.nextInt(rounds - 3);
        }
        double[][] d = new double[4][rounds];
        for (int p = 0; p < rounds; p++) {
          double shared = 0.02 * random.nextGaussian();
          for (int s = 0; s < 4; s++) {
            d[s][p] = p < last[s] ? theta[s] + shared + (p % 2 == 0 ? set[s] : -set[s]) + 0.02 * random.nextGaussian()
                : NAN;
          }
        }
        double truth = (theta[0] + theta[1] + theta[2] + theta[3]) / 4;
        Interval ci = GroupLogRatio.paired(paired(d, sets)).interval(0.95);
        covered += Math.log(ci.low()) <= truth && truth <= Math.log(ci.high()) ? 1 : 0;
        width += Math.log(ci.high() / ci.low()) / 2;
        // The old interval: the rounds every step ran, their per-round group log ratios.
        int complete = IntStream.of(last).min().orElseThrow();
        double[] perRound = new double[complete];
        boolean[] onSetOne = new boolean[complete];
        for (int p = 0; p < complete; p++) {
          perRound[p] = (d[0][p] + d[1][p] + d[2][p] + d[3][p]) / 4;
          onSetOne[p] = p % 2 == 0;
        }
        Interval old = PairedEffect.of(perRound, sets ? onSetOne : null).interval(0.95);
        oldCovered += Math.log(old.low()) <= truth && truth <= Math.log(old.high()) ? 1 : 0;
        oldWidth += Math.log(old.high() / old.low()) / 2;
      }
      double coverage = covered / (double) studies;
      double se = Math.sqrt(0.95 * 0.05 / studies);
      System.out.println(String.format(Locale.ROOT, "group intervals, sets %s: coverage %.4f (old %.4f), mean"
          + " half-width %.4f (old %.4f)", sets, coverage, oldCovered / (double) studies, width / studies,
          oldWidth / studies));
      assertThat(coverage).as("coverage, sets " + sets).isBetween(0.95 - 3 * se, 0.95 + 3 * se);
      assertThat(oldWidth / width).as("the old interval's width over the new").isGreaterThan(1.4);
    }
  }
}
