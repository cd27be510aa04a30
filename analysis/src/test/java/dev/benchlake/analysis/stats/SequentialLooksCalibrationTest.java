package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Calibration by simulation of looking after every round ({@link SequentialLooks}): studies of
 * duet pairs ({@link DuetSimulation}) that decide after every round from the first look to N, and
 * stop when every step is decided. α = 0.05, M = 5 %, latency. Each rate is checked with a
 * one-sided binomial test at 10⁻³ on its count ({@link DuetSimulation#mostAt}).
 *
 * <p>Sizes: 2000 studies give a rate of α = 0.05 a Monte Carlo SE of 0.0049, so the test allows up
 * to 131 false calls (6.6 %); the naive rule's 411 (20.6 %, measured) is far beyond that, so the
 * control fails the bound by a wide margin. A plan that spent, say, 2α would make about 200 and fail too. Each
 * test runs in under 10 s on an idle 2-core machine. One look ({@code f = N}) is the fixed
 * design of N pairs, so the same tests calibrate the plain paired analysis. The bigger sweep
 * (more studies, more N, per-pair SDs and first looks) runs with
 * {@code -Dbenchlake.sequential.full=true}.
 *
 * <p>False calls are counted at <em>any</em> look up to the stop, not only at the one reported;
 * the intervals are the reported look's {@code 1 − α_k} (and {@code 1 − 2α_k}) intervals. The
 * naive rule (every look at the nominal α) is simulated beside it: its false-call rate must exceed
 * the bound, or these tests could not fail.
 *
 * <p>What the plan buys, measured by {@link #decidesADuetWithinAFewRounds} (a study of one step,
 * per-pair SD 0.02, first look after round 3, 4000 studies each; expected rounds to stop, and the
 * fraction decided by then):
 *
 * <pre>
 *   N    θ = 1 (equivalent)      θ = 1.10 (slower)       θ = 1/1.10 (faster)
 *   10   6.6 rounds, 100 %       4.8 rounds, 100 %       4.8 rounds, 100 %
 *   20   6.6 rounds, 100 %       4.8 rounds, 100 %       4.8 rounds, 100 %
 * </pre>
 */
class SequentialLooksCalibrationTest {
  private static final double ALPHA = 0.05;
  private static final double MARGIN = 0.05;
  private static final StatisticsSettings SETTINGS = new StatisticsSettings(ALPHA, MARGIN, Correction.HOLM);

  /** What one simulated plan did over many studies. */
  private record Outcome(int studies, int steps, int anyFalseDifference, int anyFalseEquivalence, int notCovered,
      int notCoveredEquivalence, int decided, long rounds) {
    double meanRounds() {
      return (double) rounds / studies;
    }

    double decidedFraction() {
      return (double) decided / studies;
    }
  }

  /** A plan: its looks, and whether each look keeps its level (false: the naive rule, α at every look). */
  private record Plan(SequentialLooks looks, boolean naive) {
    static Plan of(int firstLook, int maxRounds) {
      return new Plan(SequentialLooks.haybittlePeto(SETTINGS, firstLook, maxRounds), false);
    }

    Plan naively() {
      return new Plan(looks, true);
    }

    SequentialLooks.Look decide(int round, List<PairedLogRatio> steps) {
      if (!naive) {
        return looks.decide(round, steps, true);
      }
      List<Decision> d = RatioDecisions.decideWithoutPlanning(steps, SETTINGS, true);
      return new SequentialLooks.Look(round, ALPHA, d, looks.stopsAfter(round, d));
    }
  }

  @Test
  void noFalseDifferenceAtAnyLookWhenNothingChanged() {
    // A noisy pair SD keeps most studies going to N: every look is a chance of a false call.
    // N = 5 with its one look: the fixed paired design.
    for (int[] looks : new int[][] {{5, 5}, {3, 10}, {3, 20}}) {
      Outcome o = simulate(Plan.of(looks[0], looks[1]), new double[] {1.0}, 0.1, 2000, 21 + looks[1]);
      assertThat(o.anyFalseDifference()).as("faster or slower at any look, looks %s", Arrays.toString(looks))
          .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, o.studies()));
    }
  }

  @Test
  void theNaiveRuleDoesInflateTheFalseDifferences() {
    // The control: deciding at α = 0.05 after every round from 3 to 20 calls a change where
    // there is none in about 20 % of studies (measured: 0.20), four times the promise.
    Outcome o = simulate(Plan.of(3, 20).naively(), new double[] {1.0}, 0.1, 2000, 22);
    assertThat(o.anyFalseDifference()).as("naive: faster or slower at any look")
        .isGreaterThan(DuetSimulation.mostAt(ALPHA, o.studies()));
  }

  @Test
  void noFalseEquivalenceAtAnyLookAtTheEdgeOfTheBand() {
    // A quiet pair SD gives TOST power, so that its size at the edge is really tested.
    for (double theta : new double[] {1 + MARGIN, 1 / (1 + MARGIN)}) {
      for (int[] looks : new int[][] {{5, 5}, {3, 10}, {3, 20}}) {
        Outcome o = simulate(Plan.of(looks[0], looks[1]), new double[] {theta}, 0.02, 2000, 31 + looks[1]);
        assertThat(o.anyFalseEquivalence()).as("equivalent at any look, θ = %s, looks %s", theta,
            Arrays.toString(looks)).isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, o.studies()));
      }
    }
    Outcome naive = simulate(Plan.of(3, 20).naively(), new double[] {1 + MARGIN}, 0.02, 2000, 33);
    assertThat(naive.anyFalseEquivalence()).as("naive: equivalent at any look")
        .isGreaterThan(DuetSimulation.mostAt(ALPHA, naive.studies()));
  }

  @Test
  void theIntervalReportedAtTheStopCoversTheTrueRatio() {
    int seed = 40;
    for (double theta : new double[] {1.0, 1.03, 1 + MARGIN, 0.9, 1.2}) {
      for (double pairSd : new double[] {0.02, 0.1}) {
        Outcome o = simulateToTheStop(Plan.of(3, 10), new double[] {theta}, pairSd, 1500, seed++);
        Outcome fixed = simulateToTheStop(Plan.of(5, 5), new double[] {theta}, pairSd, 1500, seed++);
        assertThat(fixed.notCovered()).as("fixed design: 95 %% interval misses θ = %s, SD %s", theta, pairSd)
            .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, fixed.studies()));
        assertThat(o.notCovered()).as("1 − α_k interval misses θ = %s, SD %s", theta, pairSd)
            .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, o.studies()));
        assertThat(o.notCoveredEquivalence()).as("1 − 2α_k interval misses θ = %s, SD %s", theta, pairSd)
            .isLessThanOrEqualTo(DuetSimulation.mostAt(2 * ALPHA, o.studies()));
      }
    }
  }

  @Test
  void aFamilyWithHolmKeepsEveryBoundAtEveryLook() {
    // Five steps at once; Holm across them at each look's level.
    Outcome none = simulate(Plan.of(3, 10), new double[] {1, 1, 1, 1, 1}, 0.1, 800, 51);
    assertThat(none.anyFalseDifference()).as("any step faster or slower at any look")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, none.studies()));
    Outcome naive = simulate(Plan.of(3, 10).naively(), new double[] {1, 1, 1, 1, 1}, 0.1, 800, 51);
    assertThat(naive.anyFalseDifference()).as("naive, Holm at α every look")
        .isGreaterThan(DuetSimulation.mostAt(ALPHA, naive.studies()));
    double edge = 1 + MARGIN;
    Outcome atEdge = simulate(Plan.of(3, 10), new double[] {edge, 1 / edge, edge, 1 / edge, edge}, 0.02, 800, 52);
    assertThat(atEdge.anyFalseEquivalence()).as("any step equivalent at any look, all at the edge")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, atEdge.studies()));
    Outcome mixed = simulate(Plan.of(3, 10), new double[] {1, 0.9, 1.2, 1.03, edge}, 0.05, 800, 53);
    assertThat(mixed.anyFalseDifference()).as("a false difference at any look, a mixed family")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, mixed.studies()));
    assertThat(mixed.anyFalseEquivalence()).as("a false equivalence at any look, a mixed family")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, mixed.studies()));
    // Coverage is per step: each of the 5 × 800 reported intervals.
    assertThat(mixed.notCovered()).as("per-step 1 − α_k intervals missing θ")
        .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, mixed.studies() * mixed.steps()));
  }

  /**
   * The expected rounds and the fraction decided that the quickstart's "decides within 5 minutes"
   * rests on: a duet's per-pair SD 0.02 (measured 0.008 on an idle VM), θ = 1 and θ = 1 ± 2M.
   */
  @Test
  void decidesADuetWithinAFewRounds() {
    for (int maxRounds : new int[] {10, 20}) {
      Outcome same = simulateToTheStop(Plan.of(3, maxRounds), new double[] {1.0}, 0.02, 4000, 61);
      Outcome slower = simulateToTheStop(Plan.of(3, maxRounds), new double[] {1 + 2 * MARGIN}, 0.02, 4000, 62);
      Outcome faster = simulateToTheStop(Plan.of(3, maxRounds), new double[] {1 / (1 + 2 * MARGIN)}, 0.02, 4000, 63);
      for (Outcome o : List.of(same, slower, faster)) {
        assertThat(o.decidedFraction()).as("decided, N = %d", maxRounds).isGreaterThan(0.99);
      }
      assertThat(same.meanRounds()).as("rounds to show equivalence").isLessThan(7.5);
      assertThat(slower.meanRounds()).as("rounds to detect +10 %").isLessThan(5.5);
      assertThat(faster.meanRounds()).as("rounds to detect −10 %").isLessThan(5.5);
    }
  }

  /**
   * The sweep behind {@code -Dbenchlake.sequential.full=true} (minutes, not seconds): 10 000 studies a
   * setting, so that a rate of 0.05 has a Monte Carlo SE of 0.0022 and the bound is 569 (5.7 %); per-pair
   * SDs from a quiet duet's to sequential rounds', plans from the fixed design to 40 rounds.
   */
  @Test
  void fullSweep() {
    Assumptions.assumeTrue(Boolean.getBoolean("benchlake.sequential.full"), "-Dbenchlake.sequential.full=true");
    long seed = 1000;
    for (int[] looks : new int[][] {{3, 3}, {5, 5}, {10, 10}, {3, 5}, {3, 10}, {5, 20}, {3, 40}}) {
      for (double pairSd : new double[] {0.008, 0.02, 0.05, 0.1, 0.3}) {
        String at = "looks " + Arrays.toString(looks) + ", SD " + pairSd;
        Outcome same = simulate(Plan.of(looks[0], looks[1]), new double[] {1.0}, pairSd, 10_000, seed++);
        assertThat(same.anyFalseDifference()).as("false difference, %s", at)
            .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, same.studies()));
        for (double theta : new double[] {1 + MARGIN, 1 / (1 + MARGIN)}) {
          Outcome edge = simulate(Plan.of(looks[0], looks[1]), new double[] {theta}, pairSd, 10_000, seed++);
          assertThat(edge.anyFalseEquivalence()).as("false equivalence at θ = %s, %s", theta, at)
              .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, edge.studies()));
        }
        for (double theta : new double[] {1.0, 1.03, 0.9}) {
          Outcome stop = simulateToTheStop(Plan.of(looks[0], looks[1]), new double[] {theta}, pairSd, 10_000, seed++);
          assertThat(stop.notCovered()).as("interval at the stop misses θ = %s, %s", theta, at)
              .isLessThanOrEqualTo(DuetSimulation.mostAt(ALPHA, stop.studies()));
        }
      }
    }
  }

  /**
   * {@code studies} studies of one family of steps, each step with its true ratio. Every look from
   * the plan's first to its last is decided, even past the stop: a false call counts at any look
   * (the stronger statement: it holds for a reader who goes on looking after a decision). The stop
   * is the first look that decides every step, or the last; its rounds, whether it decided, and
   * its intervals are what a study reports.
   */
  private static Outcome simulate(Plan plan, double[] thetas, double pairSd, int studies, long seed) {
    return simulate(plan, thetas, pairSd, studies, seed, true);
  }

  /** As {@link #simulate}, but each study ends at its stop: for what the stop reports, faster. */
  private static Outcome simulateToTheStop(Plan plan, double[] thetas, double pairSd, int studies, long seed) {
    return simulate(plan, thetas, pairSd, studies, seed, false);
  }

  private static Outcome simulate(Plan plan, double[] thetas, double pairSd, int studies, long seed,
      boolean pastTheStop) {
    SplittableRandom random = new SplittableRandom(seed);
    SequentialLooks looks = plan.looks();
    int n = looks.maxRounds();
    double[][] baseline = new double[thetas.length][n];
    double[][] candidate = new double[thetas.length][n];
    int anyFalseDifference = 0;
    int anyFalseEquivalence = 0;
    int notCovered = 0;
    int notCoveredEquivalence = 0;
    int decided = 0;
    long rounds = 0;
    for (int s = 0; s < studies; s++) {
      for (int i = 0; i < thetas.length; i++) {
        DuetSimulation.fillPairs(random, baseline[i], candidate[i], thetas[i], pairSd);
      }
      boolean falseDifference = false;
      boolean falseEquivalence = false;
      boolean stopped = false;
      for (int round = looks.firstLook(); round <= n && (pastTheStop || !stopped); round++) {
        List<PairedLogRatio> steps = new ArrayList<>(thetas.length);
        for (int i = 0; i < thetas.length; i++) {
          steps.add(PairedLogRatio.of(Arrays.copyOf(baseline[i], round), Arrays.copyOf(candidate[i], round)));
        }
        SequentialLooks.Look look = plan.decide(round, steps);
        for (int i = 0; i < thetas.length; i++) {
          Verdict v = look.decisions().get(i).verdict();
          falseDifference |= (v == Verdict.FASTER || v == Verdict.SLOWER) && thetas[i] == 1.0;
          falseEquivalence |= v == Verdict.EQUIVALENT && DuetSimulation.outsideTheBand(thetas[i], MARGIN);
        }
        if (look.stop() && !stopped) {
          stopped = true;
          rounds += round;
          decided += look.decisions().stream().allMatch(d -> d.verdict() != Verdict.INCONCLUSIVE) ? 1 : 0;
          for (int i = 0; i < thetas.length; i++) {
            notCovered += covers(steps.get(i).interval(1 - look.alpha()), thetas[i]) ? 0 : 1;
            notCoveredEquivalence += covers(steps.get(i).interval(1 - 2 * look.alpha()), thetas[i]) ? 0 : 1;
          }
        }
      }
      anyFalseDifference += falseDifference ? 1 : 0;
      anyFalseEquivalence += falseEquivalence ? 1 : 0;
    }
    return new Outcome(studies, thetas.length, anyFalseDifference, anyFalseEquivalence, notCovered,
        notCoveredEquivalence, decided, rounds);
  }

  private static boolean covers(Interval interval, double theta) {
    return interval.low() <= theta && theta <= interval.high();
  }
}
