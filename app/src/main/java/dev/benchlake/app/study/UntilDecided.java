package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
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
import java.util.List;
import java.util.Optional;

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

    /** Runs measurements, in order. */
    List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) throws IOException, InterruptedException;

    /**
     * A look: takes in the runs done since the last look (e.g. ingests them), then compares the
     * sides over every comparison round so far, decided at {@code at} (the look's level).
     */
    Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) throws IOException;

    /**
     * Why a look at {@code at} cannot stop the study, known before the look (a step that no look at
     * that level can decide, from the runs so far); empty: look. A look stops a study only when it
     * decides every step, so one such step means the look would change nothing. Skipping it cannot
     * raise the error rates: the level of every look is planned in advance, and a look not taken
     * only removes a chance to stop.
     */
    default Optional<String> cannotStopAt(StatisticsSettings at) throws IOException {
      return Optional.empty();
    }
  }

  /** What a look found: each step's decision (null: no estimate), and the calls in words for the log. */
  public record Look(List<Decision> decisions, String headline) {
    public Look {
      decisions = Collections.unmodifiableList(new ArrayList<>(decisions));
    }

    /** The look of a comparison: its steps' median decisions, which are its verdicts. */
    public static Look of(ComparisonReport report) {
      return new Look(report.steps().stream().map(s -> s.runLevel().median().decision()).toList(), report.headline());
    }

    /** The look of a version study's trend: every step's call of every version against the base. */
    public static Look ofTrend(dev.benchlake.analysis.trend.TrendReport trend) {
      List<Decision> decisions = new ArrayList<>();
      for (var step : trend.steps()) {
        step.versions().stream().filter(v -> !v.version().equals(trend.base()))
            .forEach(v -> decisions.add(v.decision()));
      }
      return new Look(decisions, "calls against " + trend.base() + ": " + trend.callsAgainstBase().text() + ".");
    }

  }

  /**
   * Where the study stopped.
   *
   * @param done every run, in the order they ran
   * @param stop the look it stopped at, for the report's methods
   * @param settings that look's settings: the final report is decided with them
   */
  public record Outcome(List<StudyRuns.Done> done, SequentialStop stop, StatisticsSettings settings) {}

  private UntilDecided() {}

  /**
   * Runs {@code schedule}'s rounds until a look decides every step or its last round is done.
   *
   * @param schedule the rounds, whose {@code rounds} is the most to run and whose {@code firstLook}
   *     is {@code looks}'
   */
  public static Outcome run(DuetSchedule schedule, SequentialLooks looks, Study study, PrintWriter log)
      throws IOException, InterruptedException {
    if (schedule.firstLook() != looks.firstLook() || schedule.rounds() != looks.maxRounds()) {
      throw new IllegalArgumentException("the schedule (rounds " + schedule.rounds() + ", first look "
          + schedule.firstLook() + ") and the looks (" + looks.inWords() + ") disagree");
    }
    List<StudyRuns.Done> done = new ArrayList<>();
    List<StudyRuns.Done> sinceLastLook = new ArrayList<>();
    List<DuetSchedule.Round> order = schedule.order();
    for (int i = 0; i < order.size(); i++) {
      DuetSchedule.Round round = order.get(i);
      List<StudyRuns.Done> these = study.run(study.measurementsOf(round));
      done.addAll(these);
      sinceLastLook.addAll(these);
      if (round.aa() || !looks.isLook(round.ofKind())) {
        continue;
      }
      int k = round.ofKind();
      StatisticsSettings at = looks.settingsAt(k);
      Optional<String> skip = k < looks.maxRounds() ? study.cannotStopAt(at) : Optional.empty();
      if (skip.isPresent()) {
        log.println("study: look after round " + k + " of at most " + looks.maxRounds() + " (α = " + level(at)
            + ") skipped: " + skip.get() + ". Next round.");
        log.flush();
        continue;
      }
      Look look = study.look(List.copyOf(sinceLastLook), at);
      sinceLastLook.clear();
      boolean stop = looks.stopsAfter(k, look.decisions());
      log.println("study: look after round " + k + " of at most " + looks.maxRounds() + " (α = " + level(at) + "): "
          + look.headline() + (stop ? " Stopping." : " Next round."));
      log.flush();
      if (stop) {
        List<DuetSchedule.Round> control = schedule.controlAfter(i + 1);
        if (!control.isEmpty()) {
          log.println("study: the a/a control's last " + control.size() + (control.size() == 1 ? " round" : " rounds")
              + " of " + schedule.aaRounds() + ", so that it is complete.");
          log.flush();
        }
        for (DuetSchedule.Round aa : control) {
          done.addAll(study.run(study.measurementsOf(aa)));
        }
        return new Outcome(List.copyOf(done), new SequentialStop(SequentialLooks.NAME, looks.inWords(), k,
            looks.maxRounds(), SequentialLooks.everyStepDecided(look.decisions())), at);
      }
    }
    throw new IllegalStateException("the schedule ended before its last look");
  }

  private static String level(StatisticsSettings at) {
    return new BigDecimal(at.alpha()).round(new MathContext(4)).stripTrailingZeros().toPlainString();
  }
}
