package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetSchedule;
import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A duet study run until decided ({@code --until-decided --max-rounds N}): its rounds one at a
 * time, in the {@link DuetSchedule}'s order (the a/a control's rounds spread through it), and
 * after each comparison round from the first look on a look at every step
 * ({@link SequentialLooks}: Haybittle–Peto boundaries, so that looking after every round does not
 * inflate the error rates). It stops at the first look at which every step is decided, or after
 * the last round, and then runs the control's rounds still to come, so that the control is
 * complete whenever a look stops the study (the comparison is decided already: they change none of
 * its calls). A look that the study can tell beforehand cannot stop it ({@link
 * Study#cannotStopAt}) is skipped, the last one never. What runs and what a look reads is the
 * study's ({@link Study}); this class only sequences them, so the stopping rule is one piece of
 * code for every study.
 */
public final class UntilDecided {
  /** What a study supplies to be run until decided. */
  public interface Study {
    /** The measurements of one round (a duet's pairs: one per workload). */
    List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round);

    /**
     * How many steps {@code round} measures (a pair's once), asked ahead of it: the time left and the
     * budget's check count an a/a control round by its own steps (a version study's control is one
     * pair of the base, its comparison rounds a pair per other major).
     */
    default int stepsOf(DuetSchedule.Round round) {
      return OpenSteps.count(measurementsOf(round));
    }

    /** Runs measurements, in order. */
    List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) throws IOException, InterruptedException;

    /**
     * A look: takes in the runs done since the last look (e.g. ingests them), then compares the
     * sides over every comparison round so far, decided at {@code at} (the look's level).
     */
    Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) throws IOException;

    /**
     * Why a look at {@code at} can decide none of the open steps (every step but {@code decided}),
     * known before the look (from the runs so far); empty: look. Such a look would stop nothing and
     * drop no step, so skipping it changes no outcome: the level of every look is planned in advance,
     * and a look not taken only removes a chance to decide.
     */
    default Optional<String> decidesNoneAt(StatisticsSettings at, Set<String> decided) throws IOException {
      return Optional.empty();
    }
  }

  /**
   * What a look found: each step's decision (null: no estimate), the step each decision is of
   * (null: unnamed, no step drops out), and the calls in words for the log.
   */
  public record Look(List<Decision> decisions, String headline, List<String> stepOf) {
    public Look {
      decisions = Collections.unmodifiableList(new ArrayList<>(decisions));
      stepOf = stepOf == null ? null : List.copyOf(stepOf);
      if (stepOf != null && stepOf.size() != decisions.size()) {
        throw new IllegalArgumentException(stepOf.size() + " step names for " + decisions.size() + " decisions");
      }
    }

    public Look(List<Decision> decisions, String headline) {
      this(decisions, headline, null);
    }

    /** The look of a comparison: its steps' median decisions, which are its verdicts. */
    public static Look of(ComparisonReport report) {
      return new Look(report.steps().stream().map(s -> s.runLevel().median().decision()).toList(), report.headline(),
          report.steps().stream().map(s -> s.step()).toList());
    }

    /**
     * The look of a version study's trend: every step's call of every version against the base, but
     * a warm-up step's ({@code point-query.warm}): it holds no study open, and never drops out, so
     * the steps after it keep their warm-up (issue 47).
     */
    public static Look ofTrend(dev.benchlake.analysis.trend.TrendReport trend) {
      List<Decision> decisions = new ArrayList<>();
      List<String> stepOf = new ArrayList<>();
      for (var step : trend.steps()) {
        if (trend.warmUpSteps().contains(step.step())) {
          continue;
        }
        step.versions().stream().filter(v -> !v.version().equals(trend.base())).forEach(v -> {
          decisions.add(v.decision());
          stepOf.add(step.step());
        });
      }
      String warmUp = trend.warmUpSteps().isEmpty() ? ""
          : " (the warm-up " + String.join(", ", trend.warmUpSteps()) + " not counted)";
      return new Look(decisions, "calls against " + trend.base() + ": " + trend.callsAgainstBase().text() + warmUp
          + ".", stepOf);
    }

    /**
     * The named steps this look decided: every decision of the step (one per version against the
     * base) faster, slower or equivalent. Empty for a look whose steps are unnamed.
     */
    public Set<String> decidedSteps() {
      Set<String> decided = new LinkedHashSet<>();
      if (stepOf == null) {
        return decided;
      }
      Set<String> open = new LinkedHashSet<>();
      for (int i = 0; i < decisions.size(); i++) {
        (SequentialLooks.everyStepDecided(Collections.singletonList(decisions.get(i))) ? decided : open).add(stepOf.get(i));
      }
      decided.removeAll(open);
      return decided;
    }
  }

  /**
   * Where the study stopped.
   *
   * @param done every run, in the order they ran
   * @param stop the look it stopped at, for the report's methods
   * @param settings that look's settings: the final report is decided with them
   * @param decidedAt each step decided before the last round, and the round of the look that
   *     decided it (it ran in no later comparison round)
   */
  public record Outcome(List<StudyRuns.Done> done, SequentialStop stop, StatisticsSettings settings,
      Map<String, Integer> decidedAt) {
    public Outcome {
      decidedAt = Collections.unmodifiableMap(new LinkedHashMap<>(decidedAt));
    }
  }

  private UntilDecided() {}

  /**
   * Runs {@code schedule}'s rounds until a look decides every step or its last round is done.
   *
   * @param schedule the rounds, whose {@code rounds} is the most to run and whose {@code firstLook}
   *     is {@code looks}'
   */
  public static Outcome run(DuetSchedule schedule, SequentialLooks looks, Study study, PrintWriter log)
      throws IOException, InterruptedException {
    return run(schedule, looks, study, log, Long.MAX_VALUE);
  }

  /**
   * The same within a budget ({@code --budget}): at each look from the first, when the next round,
   * the a/a control's rounds still to come and a look would not fit before {@code deadlineNs}
   * ({@link System#nanoTime}; {@link Long#MAX_VALUE}: no budget), at their measured times so far,
   * that look is taken (never skipped) and the study stops after it. Stopping at any look keeps the
   * error rates: each look's level is planned in advance ({@link SequentialLooks}).
   */
  public static Outcome run(DuetSchedule schedule, SequentialLooks looks, Study study, PrintWriter log,
      long deadlineNs) throws IOException, InterruptedException {
    return run(schedule, looks, study, new Progress(log, false), deadlineNs);
  }

  /**
   * The same, its lines said through {@code progress}: a status line before every round, a/a
   * control rounds named apart, and each look's calls.
   */
  public static Outcome run(DuetSchedule schedule, SequentialLooks looks, Study study, Progress progress,
      long deadlineNs) throws IOException, InterruptedException {
    PrintWriter log = progress.log();
    if (schedule.firstLook() != looks.firstLook() || schedule.rounds() != looks.maxRounds()) {
      throw new IllegalArgumentException("the schedule (rounds " + schedule.rounds() + ", first look "
          + schedule.firstLook() + ") and the looks (" + looks.inWords() + ") disagree");
    }
    List<StudyRuns.Done> done = new ArrayList<>();
    List<StudyRuns.Done> sinceLastLook = new ArrayList<>();
    List<DuetSchedule.Round> order = schedule.order();
    // Steps decided at a look: final, and left out of every later comparison round (issue 47).
    Set<String> decided = new LinkedHashSet<>();
    Map<String, Integer> decidedAt = new LinkedHashMap<>();
    RoundClock clock = new RoundClock(order.stream().filter(DuetSchedule.Round::aa).findFirst()
        .map(study::stepsOf).orElse(0));
    // The last comparison round's measurements, all its steps: what the rounds to come run of them is
    // what is still open.
    List<StudyRuns.Measurement> lastComparison = null;
    for (int i = 0; i < order.size(); i++) {
      DuetSchedule.Round round = order.get(i);
      List<DuetSchedule.Round> after = order.subList(i + 1, order.size());
      double budgetLeft = budgetSecondsLeft(deadlineNs, progress);
      if (round.aa()) {
        List<DuetSchedule.Round> comparisonsAfter = after.stream().filter(r -> !r.aa()).toList();
        int open = lastComparison != null ? OpenSteps.count(OpenSteps.without(lastComparison, decided))
            : comparisonsAfter.isEmpty() ? 0 : study.stepsOf(comparisonsAfter.get(0));
        clock.controlProgress(log, round.ofKind(), schedule.aaRounds(), comparisonsAfter.size(), open, after,
            budgetLeft);
      }
      // The a/a control runs every step in each of its planned rounds, whatever the comparison has
      // decided: what it checks (the method on this machine) does not depend on the comparison's data.
      List<StudyRuns.Measurement> all = study.measurementsOf(round);
      List<StudyRuns.Measurement> measurements = round.aa() ? all : OpenSteps.without(all, decided);
      if (!round.aa()) {
        lastComparison = all;
        clock.progress(log, round.ofKind(), looks.maxRounds(), OpenSteps.count(measurements), OpenSteps.count(all),
            after, budgetLeft);
      }
      long startNs = progress.nowNs() - progress.warmUpNs();
      List<StudyRuns.Done> these = study.run(measurements);
      // The first round warms the sides up (a minute, once): the time left is read from the measured rounds alone.
      clock.ran(OpenSteps.count(measurements), progress.nowNs() - progress.warmUpNs() - startNs);
      done.addAll(these);
      sinceLastLook.addAll(these);
      if (round.aa() || !looks.isLook(round.ofKind())) {
        continue;
      }
      int k = round.ofKind();
      boolean spent = k < looks.maxRounds() && deadlineNs != Long.MAX_VALUE
          && progress.nowNs() + clock.nanosBeforeStopping(OpenSteps.count(measurements), after)
              > deadlineNs;
      // The budget's last look spends what the plan has left, not an interim level: stopped after
      // round 21 of 30, the 30-minute version study decided 32 of 47 steps at 0.000926 and 37 at 1/30
      // (SequentialLooks#alphaLeftAt says why the error rates hold).
      StatisticsSettings at = spent ? looks.settingsLastAt(k) : looks.settingsAt(k);
      if (spent) {
        log.println("study: the budget does not fit another round (about "
            + Format.minutes(Math.max(0, deadlineNs - progress.nowNs()) / 1e9) + " left): the look after round " + k
            + " is the last, at the α the plan has left (" + level(at) + ").");
        log.flush();
      }
      Optional<String> skip = k < looks.maxRounds() && !spent ? study.decidesNoneAt(at, Set.copyOf(decided))
          : Optional.empty();
      if (skip.isPresent()) {
        log.println("study: look after round " + k + " of at most " + looks.maxRounds() + " (α = " + level(at)
            + ") skipped: " + skip.get() + ". Next round.");
        log.flush();
        continue;
      }
      long lookStartNs = progress.nowNs();
      Look look = study.look(List.copyOf(sinceLastLook), at);
      clock.looked(progress.nowNs() - lookStartNs);
      sinceLastLook.clear();
      Set<String> now = look.decidedSteps();
      now.removeAll(decided);
      decided.addAll(now);
      now.forEach(step -> decidedAt.put(step, k));
      boolean everyNamedDecided = look.stepOf() != null && decided.containsAll(look.stepOf());
      boolean stop = looks.stopsAfter(k, look.decisions()) || everyNamedDecided || spent;
      String dropping = now.isEmpty() || stop ? "" : " Decided, so left out of later rounds: " + String.join(", ", now)
          + " (" + (new LinkedHashSet<>(look.stepOf()).size() - decided.size()) + " open).";
      log.println("study: look after round " + k + " of at most " + looks.maxRounds() + " (α = " + level(at) + "): "
          + look.headline() + dropping + (stop ? " Stopping." : " Next round."));
      log.flush();
      if (stop) {
        List<DuetSchedule.Round> control = schedule.controlAfter(i + 1);
        if (!control.isEmpty()) {
          log.println("study: the a/a control's last " + control.size() + (control.size() == 1 ? " round" : " rounds")
              + " of " + schedule.aaRounds() + ", so that it is complete.");
          log.flush();
        }
        for (int c = 0; c < control.size(); c++) {
          DuetSchedule.Round aa = control.get(c);
          List<StudyRuns.Measurement> theirs = study.measurementsOf(aa);
          clock.controlProgress(log, aa.ofKind(), schedule.aaRounds(), 0, 0, control.subList(c + 1, control.size()),
              budgetSecondsLeft(deadlineNs, progress));
          long controlStartNs = progress.nowNs();
          done.addAll(study.run(theirs));
          clock.ran(OpenSteps.count(theirs), progress.nowNs() - controlStartNs);
        }
        return new Outcome(List.copyOf(done), new SequentialStop(looks.rule(), looks.inWords(), k,
            looks.maxRounds(), SequentialLooks.everyStepDecided(look.decisions()) || everyNamedDecided,
            spent ? at.alpha() : null), at,
            decidedAt);
      }
    }
    throw new IllegalStateException("the schedule ended before its last look");
  }

  /** What is left of the budget, in seconds ({@link Double#POSITIVE_INFINITY} without one). */
  private static double budgetSecondsLeft(long deadlineNs, Progress progress) {
    return deadlineNs == Long.MAX_VALUE ? Double.POSITIVE_INFINITY
        : Math.max(0, deadlineNs - progress.nowNs()) / 1e9;
  }

  private static String level(StatisticsSettings at) {
    return new BigDecimal(at.alpha()).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
