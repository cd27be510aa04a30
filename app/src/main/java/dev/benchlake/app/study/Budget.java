package dev.benchlake.app.study;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * {@code --budget DURATION} of a study run until decided (issue 47): the study spends it on the
 * open steps, and stops when every step is decided, when the next round and the control's rounds
 * still to come would not fit in what is left, or after its last round. Refused before anything is
 * written when it is shorter than one round of the plan.
 */
public final class Budget {
  /** The option's description, shared by the commands that take it. */
  public static final String DESCRIPTION = "A duet run until decided: the most time its rounds and looks may take "
      + "(e.g. 30m), spent on the steps still open; the ingest and reports after the last round come on top (about "
      + "half a minute for the quickstart). After each look it stops when the next round would not fit in what is left "
      + "(the a/a control's rounds to come and a look counted in), and that last look spends the alpha the plan has "
      + "left; else it stops when every step is decided or after --max-rounds. The report gives the open steps with "
      + "their intervals and the runs they would need. Implies --until-decided.";

  private Budget() {}

  /**
   * The least one comparison round of {@code plan} takes: every step's warm-up and measured time,
   * for every measurement of its first comparison round (servers' starts and loads not counted: a
   * lower bound). Not the first round whatever its kind: an a/a round runs one pair where a version
   * study of several majors runs one per other major.
   */
  static Duration leastRound(StudyPlan<?> plan) {
    DuetSchedule.Round first = plan.schedule().order().stream().filter(r -> !r.aa()).findFirst().orElseThrow();
    List<StudyRuns.Measurement> round = plan.byRound(Path.of("runs"), null).apply(first);
    Duration least = Duration.ZERO;
    for (StudyRuns.Measurement m : round) {
      LoadgenConfig c = m instanceof StudyRuns.Pair p ? p.a().config() : ((StudyRuns.Alone) m).config();
      least = least.plus(leastRun(c));
    }
    return least;
  }

  /** A run's least time: per step its warm-up and its measured time (the shorter kind's where they differ). */
  static Duration leastRun(LoadgenConfig c) {
    LoadgenConfig.WorkloadSpec w = c.workload();
    Duration measured = c.duration();
    if (measured == null) {
      measured = w.readDuration() == null ? w.writeDuration()
          : w.writeDuration() == null ? w.readDuration()
          : w.readDuration().compareTo(w.writeDuration()) <= 0 ? w.readDuration() : w.writeDuration();
    }
    int steps = w.stepNames().size();
    return c.warmup().plus(measured == null ? Duration.ZERO : measured).multipliedBy(steps);
  }

  /** Refuses a budget shorter than one round of {@code plan} (exit 2). */
  static void check(Duration budget, StudyPlan<?> plan) {
    if (budget == null) {
      return;
    }
    Duration round = leastRound(plan);
    if (budget.compareTo(round) < 0) {
      throw new BadInputException("--budget " + words(budget) + " is shorter than one round of this study (at least "
          + words(round) + ": its steps' warm-ups and measured times); give more time, or fewer or shorter steps");
    }
  }

  /** {@code 30 min 0 s}, {@code 45 s}, {@code 1.5 s}. */
  static String words(Duration d) {
    long ms = d.toMillis();
    if (ms % 1000 != 0 && ms < 60_000) {
      return java.math.BigDecimal.valueOf(ms, 3).stripTrailingZeros().toPlainString() + " s";
    }
    return Format.minutes(ms / 1000.0);
  }
}
