package dev.benchlake.analysis.stats;

import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.core.cli.BadInputException;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;
import org.apache.commons.math3.distribution.NormalDistribution;

/**
 * Looking after every round: the group-sequential plan of a study that adds one round (a pair of
 * runs, one of each side) at a time and decides after each, built so that looking often does not
 * inflate its error rates ({@code --until-decided --max-rounds N}).
 *
 * <p><b>The rule: Haybittle–Peto boundaries, α split across the looks by Bonferroni.</b> Looks
 * come after rounds {@code f, f+1, …, N} ({@code f} = {@link #firstLook}, at least
 * {@value #MIN_FIRST_LOOK} so that the one-sample t of the pairs has df ≥ 2; {@code N} =
 * {@link #maxRounds}): {@code K = N − f + 1} looks. Every interim look (after rounds
 * {@code f … N−1}) is decided at the nominal level {@code α_I = min(0.001, α/(2(K−1)))}: the
 * Haybittle–Peto boundary (Haybittle 1971; Peto et al. 1976: a two-sided p of 0.001, about 3.3
 * standard errors), lowered only where so many looks would spend more than half of α (more than
 * 25 interim looks at α = 0.05). The last look (after round N) is decided at what is left,
 * {@code α_K = α − (K−1)·α_I}, so that {@code Σ_k α_k = α} exactly. With one look ({@code f = N})
 * this is the fixed design at α. A plan is its list of levels and the rule's name (study.json and
 * the report's methods give both), so another rule is another list ({@link #spending}); the
 * argument below holds for any list that sums to at most α.
 *
 * <p>At look {@code k} the family of steps is decided by {@link RatioDecisions} at level
 * {@code α_k}, with the settings' margin and correction across the steps: {@code equivalent} when
 * the TOST p (adjusted) is ≤ α_k, i.e. for one step the {@code 1 − 2α_k} interval lies inside the
 * band; else {@code faster}/{@code slower} when the difference p (adjusted) is ≤ α_k, the
 * {@code 1 − α_k} interval excludes 1; else {@code inconclusive}. The study stops at the first
 * look at which every step is decided, or after round N ({@link #stopsAfter}); it reports that
 * look's decisions, and that look's {@code 1 − α_k} and {@code 1 − 2α_k} intervals
 * ({@link #settingsAt}: the settings at level α_k give both).
 *
 * <p><b>Why the error rates hold.</b> Let {@code E_k} be the event that look {@code k} makes a
 * false call of one kind, for any step of the family: a difference ({@code faster} or {@code slower}) for a step whose θ is 1, or
 * {@code equivalent} for a step whose θ lies outside the open band. Each look's rule bounds
 * {@code P(E_k) ≤ α_k}: the one-sample t and its TOST are exact at their level for normal log
 * ratios whatever the number of pairs, and Holm's correction keeps the family-wise rate at α_k
 * under any dependence between the steps ({@code --correction none} keeps it per step only, and
 * so does the whole plan). A false call is reported only if some look made it, so
 * {@code P(a false call is reported) ≤ P(∪_k E_k) ≤ Σ_k P(E_k) ≤ Σ_k α_k = α} (Bonferroni's
 * inequality), however the looks' statistics are correlated and whatever made the study stop. With
 * the Benjamini–Hochberg correction each look keeps its false discovery rate at α_k (where BH
 * does: steps independent or positively dependent), and the reported look's false discovery
 * proportion is at most the sum of all looks', so the reported rate is at most α too.
 *
 * <p>The same inequality makes the intervals <em>repeated confidence intervals</em> (Jennison &amp;
 * Turnbull 1989; <i>Group Sequential Methods</i>, 2000, ch. 9): the {@code 1 − α_k} intervals of
 * all the looks cover θ together with probability at least {@code 1 − α}, so the interval reported
 * at whichever look the study stopped covers θ with at least that probability; the
 * {@code 1 − 2α_k} intervals likewise with {@code 1 − 2α}.
 *
 * <p><b>Why this rule.</b>
 *
 * <ul>
 *   <li><b>It is exact with few pairs.</b> Pocock's, O'Brien–Fleming's and Lan–DeMets' boundaries
 *       come from the joint normal law of the looks' statistics with a known variance. Here the
 *       variance is estimated from 2 to 20 degrees of freedom, the looks' t statistics do not have
 *       that law, and with TOST and a correction across steps on top there is no exact boundary to
 *       compute: their nominal levels would be approximations. The Bonferroni split needs no
 *       joint law at all, and the simulations prove it ({@code SequentialLooksCalibrationTest}).
 *   <li><b>It gives up little at the end.</b> The last look keeps α − (K−1)·0.001: 0.043 for
 *       looks after rounds 3 to 10, 0.033 for 3 to 20, so a study that runs to N decides almost as
 *       a fixed study of N rounds would; an interim look decides only on overwhelming evidence,
 *       which is what the duet gives (per-pair SD 0.008–0.02: a 10 % change is decided after
 *       about 5 rounds, a no-change within 5 % after about 7).
 *   <li><b>What it costs.</b> A split equal over the looks (α/K each, Pocock-like) stops one or two
 *       rounds earlier on clear cases but decides far fewer noisy ones by round N (by simulation,
 *       per-pair SD 0.05, θ = 1, looks after rounds 3 to 10, 4000 studies: 31 % decided against
 *       77 % here); O'Brien–Fleming-like spending lies between the two.
 *   <li><b>No other split did better with decided steps dropping out</b> (issue 47; the real loop,
 *       {@code OpenStepsCalibrationTest}'s {@code -Dbenchlake.looks.compare=true}). On the
 *       quickstart's shape a larger interim level or a spending function saves step-rounds only by
 *       deciding fewer studies whole (interim 0.0025: 31.8 step-rounds against 34.9, every step
 *       decided in 98.6 % against 99.5 %). On the version study's 48 steps every rule ran 476–479
 *       of 480 step-rounds and this one decided the most by round 10: the steps' spread, not the
 *       interim level, holds that study open.
 * </ul>
 *
 * @param settings α (the whole plan's), the margin and the correction across steps
 * @param firstLook f: the round after which the first look comes, at least {@value #MIN_FIRST_LOOK}
 * @param maxRounds N: the round after which the last look comes, at least {@code firstLook}
 * @param rule the rule's name, as the report's methods and study.json give it
 * @param levels α_k of every look, first to last
 */
public record SequentialLooks(StatisticsSettings settings, int firstLook, int maxRounds, String rule,
    List<Double> levels) {
  /** The fewest pairs a look may have: df = 2, the fewest at which a t interval is usable. */
  public static final int MIN_FIRST_LOOK = 3;
  /** The first look when none is chosen: as early as the rule allows. */
  public static final int DEFAULT_FIRST_LOOK = MIN_FIRST_LOOK;
  /** Haybittle–Peto's interim level: a two-sided p of 0.001. */
  public static final double HAYBITTLE_PETO_LEVEL = 0.001;
  /** As the report's methods name the rule. */
  public static final String NAME = "Haybittle–Peto boundaries with a Bonferroni split of α across the looks";

  /** One look's outcome: its round, its level α_k, the family's decisions at it, and whether the study stops. */
  public record Look(int round, double alpha, List<Decision> decisions, boolean stop) {}

  /**
   * @param levels α_k of every look, first to last: each above 0, together at most α
   * @throws BadInputException for a last round ({@code --max-rounds}) before the first look
   * @throws IllegalArgumentException for a first look below {@value #MIN_FIRST_LOOK}, or levels
   *     that are not one a look or spend more than α
   */
  public SequentialLooks {
    Objects.requireNonNull(settings, "settings");
    Objects.requireNonNull(rule, "rule");
    if (firstLook < MIN_FIRST_LOOK) {
      // No option sets it today: a caller's mistake, not the user's.
      throw new IllegalArgumentException("first look after round " + firstLook + ": a look needs " + MIN_FIRST_LOOK
          + " pairs at least, so that their t interval has 2 degrees of freedom");
    }
    if (maxRounds < firstLook) {
      throw new BadInputException("--max-rounds " + maxRounds + " is below the first look (after round " + firstLook
          + "): nothing would ever be looked at; e.g. --max-rounds " + Math.max(10, firstLook));
    }
    levels = List.copyOf(levels);
    double spent = levels.stream().mapToDouble(Double::doubleValue).sum();
    if (levels.size() != maxRounds - firstLook + 1 || levels.stream().anyMatch(l -> !(l > 0))
        || spent > settings.alpha() * (1 + 1e-12)) {
      throw new IllegalArgumentException(levels.size() + " levels " + levels + " for looks after rounds " + firstLook
          + " to " + maxRounds + ": one a look, each above 0, together at most alpha " + settings.alpha());
    }
  }

  /**
   * The plan of looks after rounds {@code firstLook … maxRounds}: Haybittle–Peto's 0.001 at every
   * interim look (less where more than 25 would spend more than half of α), the rest at the last.
   */
  public static SequentialLooks haybittlePeto(StatisticsSettings settings, int firstLook, int maxRounds) {
    int interim = Math.max(0, maxRounds - firstLook);
    double level = interim == 0 ? HAYBITTLE_PETO_LEVEL
        : Math.min(HAYBITTLE_PETO_LEVEL, settings.alpha() / (2.0 * interim));
    List<Double> levels = new ArrayList<>(Collections.nCopies(interim, level));
    levels.add(settings.alpha() - interim * level);
    return new SequentialLooks(settings, firstLook, maxRounds, NAME, levels);
  }

  /**
   * Levels from an α-spending function (Lan &amp; DeMets 1983), split by Bonferroni: look
   * {@code k} after round {@code r} spends {@code α·(s(r/N) − s(r'/N))}, {@code r'} the round of
   * the look before ({@code s(r'/N) = 0} before the first), with {@code s} rising from
   * {@code s(0) = 0} to {@code s(1) = 1}; the last look takes what is left, so Σ α_k = α.
   */
  public static SequentialLooks spending(StatisticsSettings settings, int firstLook, int maxRounds,
      DoubleUnaryOperator share, String rule) {
    List<Double> levels = new ArrayList<>();
    double before = 0;
    for (int round = firstLook; round < maxRounds; round++) {
      double now = share.applyAsDouble((double) round / maxRounds);
      levels.add(settings.alpha() * (now - before));
      before = now;
    }
    levels.add(settings.alpha() * (1 - before));
    return new SequentialLooks(settings, firstLook, maxRounds, rule, levels);
  }

  /**
   * Lan &amp; DeMets' O'Brien–Fleming-like spending, as a share of α: {@code s(t) = 2(1 − Φ(z/√t))/α},
   * {@code z} the normal quantile at {@code 1 − α/2}.
   */
  public static DoubleUnaryOperator obrienFlemingShare(double alpha) {
    double z = new NormalDistribution(null, 0, 1).inverseCumulativeProbability(1 - alpha / 2);
    return t -> 2 * NormalTail.survival(z / Math.sqrt(t)) / alpha;
  }

  /** K, the number of looks. */
  public int looks() {
    return maxRounds - firstLook + 1;
  }

  /** Whether a look comes after {@code round}. */
  public boolean isLook(int round) {
    return round >= firstLook && round <= maxRounds;
  }

  /** α_k of the look after {@code round}: α_I before the last round, what is left of α at it. */
  public double alphaAt(int round) {
    if (!isLook(round)) {
      throw new IllegalArgumentException("no look after round " + round + ": looks come after rounds " + firstLook
          + " to " + maxRounds);
    }
    return levels.get(round - firstLook);
  }

  /** The settings the look after {@code round} decides with: its level α_k, the same margin and correction. */
  public StatisticsSettings settingsAt(int round) {
    return settings.withAlpha(alphaAt(round));
  }

  /**
   * The level of the look after {@code round} when it is the study's last, though not the plan's
   * (a time budget ends the study there): what the plan has left, its whole spend less the levels
   * of the looks before it. A look skipped ({@code UntilDecided}) counts as spent. At the plan's
   * last round this is {@link #alphaAt} exactly.
   *
   * <p><b>Why the error rates still hold</b> (issue 47). The argument above needs the level of
   * every look fixed before the data; here the last look's level depends on when the budget runs
   * out, and so on how many steps are still open. Take a family's true nulls (the steps a false
   * call could be made on). Until one of them is falsely called, all of them are open, so the
   * round at which the budget ends, had none been falsely called, is set by the other steps and
   * the machine's times alone: call it {@code L*}. A false call is either made at a look before
   * {@code L*} (level α_I each) or at {@code L*} itself (this level), so its probability is at
   * most {@code E[Σ_{k<L*} α_k + alphaLeftAt(L*)] = E[Σ levels] ≤ α}, provided {@code L*} is
   * independent of the nulls' statistics: Holm (or Bonferroni) makes a false call only when the
   * smallest of the nulls' p values is below the look's level over their number, a function of the
   * nulls' data alone. Rounds that disturb every step at once make the steps weakly dependent, so
   * {@code BudgetLooksCalibrationTest} checks the bound through the real loop, with each round's
   * time its open steps'.
   */
  public double alphaLeftAt(int round) {
    double before = levels.subList(0, round - firstLook).stream().mapToDouble(Double::doubleValue).sum();
    double whole = levels.stream().mapToDouble(Double::doubleValue).sum();
    return Math.max(alphaAt(round), whole - before);
  }

  /** The settings of the look after {@code round} as the study's last ({@link #alphaLeftAt}). */
  public StatisticsSettings settingsLastAt(int round) {
    return settings.withAlpha(alphaLeftAt(round));
  }

  /**
   * Whether the study stops after {@code round}, given its look's decisions: after the last round,
   * or when every step is decided ({@code faster}, {@code slower} or {@code equivalent}). A null
   * decision (a step without an estimate) is undecided. Before the first look nothing stops.
   */
  public boolean stopsAfter(int round, List<Decision> decisions) {
    if (round >= maxRounds) {
      return true;
    }
    return isLook(round) && everyStepDecided(decisions);
  }

  /** Whether every step is decided: {@code faster}, {@code slower} or {@code equivalent} (null: no estimate, undecided). */
  public static boolean everyStepDecided(List<Decision> decisions) {
    return decisions.stream().allMatch(d -> d != null && d.verdict() != Verdict.INCONCLUSIVE);
  }

  /**
   * The look after {@code round}: the family decided at α_k, without {@code runsNeeded} (what comes
   * after an interim look is the next round; after the last, a report that wants a plan for a new
   * study asks {@link RatioDecisions#decide} at {@link #settingsAt} the last round).
   *
   * @param steps the family's effects after {@code round}, one per step (each from the pairs so far)
   */
  public Look decide(int round, List<? extends RatioEffect> steps, boolean lowerIsBetter) {
    StatisticsSettings at = settingsAt(round);
    List<Decision> decisions = RatioDecisions.decideWithoutPlanning(steps, at, lowerIsBetter);
    return new Look(round, at.alpha(), decisions, stopsAfter(round, decisions));
  }

  /**
   * The plan in words, for a report's methods: e.g. {@code looks after rounds 3 to 9 at α = 0.001
   * each and after round 10 at α = 0.043 (together α = 0.05)}.
   */
  public String inWords() {
    String last = "after round " + maxRounds + " at α = " + plain(alphaAt(maxRounds));
    if (looks() == 1) {
      return "one look, " + last;
    }
    List<Double> interimLevels = levels.subList(0, levels.size() - 1);
    String interim;
    if (firstLook == maxRounds - 1) {
      interim = "after round " + firstLook + " at α = " + plain(levels.get(0));
    } else if (interimLevels.stream().distinct().count() == 1) {
      interim = "after rounds " + firstLook + " to " + (maxRounds - 1) + " at α = " + plain(levels.get(0)) + " each";
    } else {
      interim = "after rounds " + firstLook + " to " + (maxRounds - 1) + " at α = "
          + String.join(", ", interimLevels.stream().map(SequentialLooks::plain).toList());
    }
    return "looks " + interim + " and " + last + " (together α = " + plain(settings.alpha()) + ")";
  }

  /** Four significant digits, as typed: {@code 0.001}, {@code 0.043}. */
  private static String plain(double value) {
    return new BigDecimal(value).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
