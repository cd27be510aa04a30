package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.PairKeys;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.CrossoverLogRatio;
import dev.benchlake.analysis.stats.PairedEffect;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A duet study's a/a control in one figure: both sides ran the same thing, so its θ must come out
 * 1. A control shown {@code equivalent} within the margin confirms the method; one that shows a
 * difference ({@code faster}/{@code slower}) marks the study unreliable above its verdicts (its
 * calls may reflect the method, e.g. one launch position or CPU set favoured, not the versions);
 * an inconclusive one is too short to confirm the method, which is a lack of evidence, not
 * evidence of a fault, and says how many rounds would decide it ({@link State}).
 *
 * <p>The unit is the a/a round: every pair of runs whose pairing key names that round ({@code
 * round=3}, and {@code round=3, pair=sysbench} and {@code round=3, pair=select-update} where a round
 * measures several workloads one after the other). Each round gives one figure, the mean over its
 * steps of the log ratio of the per-run medians (the figure the verdicts rest on), every step
 * weighing the same; θ is the exponentiated mean of those figures, its interval the one-sample t
 * over the rounds ({@link PairedLogRatio}, {@code df = rounds − 1}), decided at the comparison's α
 * and margin (TOST for {@code equivalent}). The sides swap CPU sets every round; where at least
 * two rounds ran each way, the set is fitted as the comparison's own analysis fits it ({@link
 * CrossoverLogRatio}, {@code df = rounds − 2}), so that the control checks the analysis the
 * verdicts use. The per-step a/a verdicts are in the control's own report ({@code aa/}).
 *
 * <p>Why the round. The steps of one round share its CPU sets and its stretch of time: what
 * disturbs it (other work on one set, a noisy minute) moves them together. Pooling the (round,
 * step) pairs as independent gave intervals far too narrow, and an a/a control "slower" by 19 %
 * [6 %, 33 %] over 6 pairs of 3 rounds on a loaded CI machine. An earlier release took each
 * workload of a round as a unit of its own (the pairing key), which weighed a workload by its
 * measurements, not its steps: the quickstart's select-update, one step of five but alone in its
 * workload with a spread ten times the sysbench steps', carried half the control, which then
 * failed a sound method in most quickstarts. Weighing steps within the round and taking the rounds
 * as independent is exact whatever the correlation between a round's workloads: simulated with the
 * quickstart's shape (4 rounds, SDs 0.12 and 0.008, {@code AaControlTest}), it calls a method 5 %
 * off equivalent in 5 % of controls and covers θ in 95 %, where a stratified mean by workload with
 * Welch–Satterthwaite degrees of freedom covered 93 % once a round's workloads moved together. A
 * round that lacks a step (a pair dropped) gives the mean of the steps it has.
 *
 * @param rounds the rounds with at least one complete pair: the sample
 * @param measurements the pairing keys behind them (a round's workloads)
 * @param pairs the (measurement, step) pairs behind them
 * @param steps the steps they come from
 * @param ratio θ of the control: 1 when the method is sound
 * @param ci the interval at the comparison's decision confidence (1 − α)
 * @param confidence that confidence
 * @param equivalenceCi the interval its {@code equivalent} rests on (TOST: the 1 − 2α interval within
 *     the margin), shown beside the verdict so that a reader can check it against the margin
 * @param equivalenceConfidence that interval's confidence (1 − 2α)
 * @param verdict the control's verdict: {@code equivalent} confirms the method, {@code faster} or
 *     {@code slower} makes the study unreliable, {@code inconclusive} leaves it unconfirmed ({@link State})
 * @param margin the equivalence margin it was decided with
 * @param cpuSetFitted whether the rounds swapped CPU sets with at least two each way, so that the
 *     set was fitted as in the comparison's own analysis ({@link CrossoverLogRatio}, {@code df =
 *     rounds − 2})
 * @param roundsNeeded for an inconclusive control, the a/a rounds that would decide it at {@link
 *     RatioDecisions#PLANNED_POWER} power at their spread, as the comparison plans a step's pairs
 *     ({@link RatioEffect#runsToDecide}); null otherwise, or where no count does
 */
public record AaControl(int rounds, int measurements, int pairs, int steps, double ratio, Range ci,
    double confidence, Range equivalenceCi, double equivalenceConfidence, Verdict verdict, double margin,
    boolean cpuSetFitted, Integer roundsNeeded) {
  /**
   * The a/a rounds a duet runs unless told otherwise ({@code --aa-rounds}): enough for a sound
   * method's control to come out equivalent, the CPU set fitted ({@code df = rounds − 2}). Simulated
   * with the quickstart's shape and the SDs measured on this project's 2-core VM (select-update
   * 0.04–0.07, the sysbench steps 0.012; {@code AaControlTest}), a sound method's control came out
   * equivalent in 99.8 % of studies at 6 rounds against 85 % at 4 (t = 2.92 on 2 degrees of freedom
   * left it a per-round SD under 0.033), and a method 5 % off was called slower in 99 %. Each round
   * costs a quickstart about 15–17 s, so 6 rounds, not 8: 8 gained 0.2 points clean and 8 points
   * with 5 % of step-rounds disturbed (98 % against 90 %), for another 30–34 s.
   */
  public static final int DEFAULT_ROUNDS = 6;

  /**
   * The control from its comparison (side b against side a, both the baseline); null when it has
   * fewer than two rounds with a complete pair (nothing to decide on).
   */
  public static AaControl of(ComparisonReport control, StatisticsSettings settings) {
    return of(control.steps().stream().map(s -> s.runLevel().median().pairs()).toList(), settings);
  }

  /** The control from each step's pairs (null entries: a step without pairs), by round. */
  public static AaControl of(List<RunPairs> stepPairs, StatisticsSettings settings) {
    return of(stepPairs, settings, true);
  }

  /**
   * The same control without {@code roundsNeeded} (null): its θ, intervals and verdict only, decided
   * exactly as {@link #of(List, StatisticsSettings)} decides them. Planning an inconclusive control's
   * rounds (a power search) is most of a call's time, and the simulations of the calls ({@code
   * AaControlTest}: 22,000 controls, 120 s -> 16 s with it left out) do not read it.
   */
  static AaControl withoutPlanning(List<RunPairs> stepPairs, StatisticsSettings settings) {
    return of(stepPairs, settings, false);
  }

  private static AaControl of(List<RunPairs> stepPairs, StatisticsSettings settings, boolean plan) {
    List<RunPairs.Pair> all = new ArrayList<>();
    int steps = 0;
    for (RunPairs stepPairsOfOneStep : stepPairs) {
      if (stepPairsOfOneStep != null && stepPairsOfOneStep.size() > 0) {
        steps++;
        all.addAll(stepPairsOfOneStep.pairs());
      }
    }
    // Per pair, whether its baseline ran on set one; a round is on one assignment of the sets.
    boolean[] pairOnSetOne = new RunPairs(all, List.of()).baselineOnSetOne();
    Map<String, List<Double>> logRatiosByRound = new LinkedHashMap<>();
    Map<String, Boolean> onSetOneByRound = new LinkedHashMap<>();
    Set<String> measurements = new HashSet<>();
    boolean setsKnown = pairOnSetOne != null;
    for (int i = 0; i < all.size(); i++) {
      RunPairs.Pair pair = all.get(i);
      String round = roundOf(pair.key());
      measurements.add(pair.key());
      logRatiosByRound.computeIfAbsent(round, r -> new ArrayList<>())
          .add(Math.log(pair.figures().candidate()) - Math.log(pair.figures().baseline()));
      if (setsKnown) {
        Boolean earlier = onSetOneByRound.putIfAbsent(round, pairOnSetOne[i]);
        setsKnown = earlier == null || earlier == pairOnSetOne[i];
      }
    }
    if (logRatiosByRound.size() < 2) {
      return null;
    }
    double[] byRound = logRatiosByRound.values().stream()
        .mapToDouble(logs -> logs.stream().mapToDouble(Double::doubleValue).average().orElseThrow()).toArray();
    boolean[] onSetOne = null;
    if (setsKnown) {
      onSetOne = new boolean[byRound.length];
      int r = 0;
      for (boolean one : onSetOneByRound.values()) {
        onSetOne[r++] = one;
      }
    }
    RatioEffect effect = PairedEffect.of(byRound, onSetOne);
    RatioDecisions.Decision decision = (plan ? RatioDecisions.decide(List.of(effect), settings, true)
        : RatioDecisions.decideWithoutPlanning(List.of(effect), settings, true)).get(0);
    Integer needed = decision.runsNeeded() == null ? null : decision.runsNeeded().runs();
    return new AaControl(byRound.length, measurements.size(), all.size(), steps, effect.ratio(),
        Range.of(effect.interval(settings.decisionConfidence())), settings.decisionConfidence(),
        Range.of(effect.interval(settings.equivalenceConfidence())), settings.equivalenceConfidence(),
        decision.verdict(), settings.margin(), effect instanceof CrossoverLogRatio, needed);
  }

  /** The round a pairing key names ({@code round=3} of {@code round=3, pair=sysbench}); the key itself without one. */
  private static String roundOf(String key) {
    String round = PairKeys.part(key, Pairing.ROUND_LABEL);
    return round == null ? key : round;
  }

  /** What the control says of the method: its three outcomes, each with its own sentence. */
  public enum State {
    /** Equivalent within the margin: the method shows no difference where there is none. */
    CONFIRMED("confirmed"),
    /** Inconclusive: too few or too noisy rounds to show either; no evidence of a fault. */
    TOO_SHORT("too short"),
    /** Faster or slower: the method shows a difference where there is none. */
    UNRELIABLE("unreliable");

    private final String id;

    State(String id) {
      this.id = id;
    }

    /** report.json's {@code controls.aa.state}. */
    public String id() {
      return id;
    }
  }

  /**
   * The control's state. Only a difference makes the study unreliable: an inconclusive control is
   * a lack of evidence, not evidence of a fault, and says how many rounds would decide it.
   */
  public State state() {
    return switch (verdict) {
      case EQUIVALENT -> State.CONFIRMED;
      case INCONCLUSIVE -> State.TOO_SHORT;
      default -> State.UNRELIABLE;
    };
  }

  /** Whether the control confirmed the method: it came out equivalent within the margin. */
  public boolean reliable() {
    return state() == State.CONFIRMED;
  }

  /** Whether the control showed a difference where there is none: the study's calls may reflect the method. */
  public boolean unreliable() {
    return state() == State.UNRELIABLE;
  }

  /**
   * The control's figures: {@code θ +0.3%, 95% interval [−0.4%, +1.0%], 90% interval [−0.3%, +0.9%],
   * over 4 rounds (8 measurements, 20 pairs of 5 steps, CPU set fitted)}: the second interval is the
   * one the margin is checked on.
   */
  public String figures() {
    return "θ " + Format.changeOf(ratio, ci) + ", " + Format.percent(confidence) + " interval "
        + Format.changeInterval(ci) + ", " + Format.percent(equivalenceConfidence) + " interval "
        + Format.changeInterval(equivalenceCi) + ", over " + rounds + " rounds ("
        + (measurements == rounds ? "" : measurements + " measurements, ") + pairs + " pairs of " + steps
        + (steps == 1 ? " step" : " steps") + (cpuSetFitted ? ", CPU set fitted" : "") + ")";
  }

  /**
   * The sentence a report leads with, one per {@link State}: what the control showed; {@code
   * Control too short to confirm the method: …} with the rounds that would decide it when it is
   * inconclusive; {@code Unreliable: …} only when it shows a difference.
   */
  public String sentence() {
    String margin = "±" + Format.percent(this.margin);
    return switch (state()) {
      case CONFIRMED -> "A/a control (both sides the same): " + figures() + ": equivalent, the "
          + Format.percent(equivalenceConfidence) + " interval within " + margin
          + ": the method shows no difference where there is none.";
      case TOO_SHORT -> "Control too short to confirm the method: the a/a control (both sides the same) came out "
          + "inconclusive, " + figures() + ": it shows no difference, but the " + Format.percent(equivalenceConfidence)
          + " interval is not within " + margin
          + (roundsNeeded == null ? "" : " (about " + roundsNeeded + " a/a rounds would decide it, at "
              + Format.percent(RatioDecisions.PLANNED_POWER) + " power at their spread: --aa-rounds " + roundsNeeded + ")")
          + "; the calls below rest on their own intervals, the method unconfirmed.";
      case UNRELIABLE -> "Unreliable: the a/a control (both sides the same) came out " + Format.verdict(verdict)
          + " (side b against side a), " + figures() + ": the method shows a difference where there is none"
          + "; the calls below may reflect the measurement, not the sides.";
    };
  }
}
