package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.loadgen.LoadgenConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A comparison round's measurements with the decided steps left out (issue 47): a study run until
 * decided spends its later rounds on the steps whose answer is still open. A sysbench run keeps its
 * open steps in the order of the full sequence, so each step keeps its place (what ran before it
 * on the tables, its own warm-up); a measurement whose every step is decided (select-update, one
 * step) is not run at all.
 */
final class OpenSteps {
  private OpenSteps() {}

  /** The steps a run's config measures: its sysbench steps ({@code mytools} resolved), or the workload's one step. */
  static List<String> of(LoadgenConfig config) {
    return config.workload().stepNames();
  }

  /** {@code measurements} without the {@code decided} steps; unchanged when none is decided. */
  static List<StudyRuns.Measurement> without(List<StudyRuns.Measurement> measurements, Set<String> decided) {
    if (decided.isEmpty()) {
      return measurements;
    }
    List<StudyRuns.Measurement> open = new ArrayList<>();
    for (StudyRuns.Measurement m : measurements) {
      List<String> steps = new ArrayList<>(of(config(m)));
      steps.removeAll(decided);
      if (steps.isEmpty()) {
        continue;
      }
      if (steps.size() == of(config(m)).size()) {
        open.add(m);
      } else if (m instanceof StudyRuns.Pair p) {
        open.add(new StudyRuns.Pair(p.title(), only(p.a(), steps), only(p.b(), steps), p.swap()));
      } else if (m instanceof StudyRuns.Alone a) {
        open.add(new StudyRuns.Alone(a.title(), a.config().withSteps(steps)));
      }
    }
    return open;
  }

  /** How many steps {@code measurements} measure (a pair's once). */
  static int count(List<StudyRuns.Measurement> measurements) {
    return measurements.stream().mapToInt(m -> of(config(m)).size()).sum();
  }

  private static SideRun only(SideRun side, List<String> steps) {
    return new SideRun(side.name(), side.config().withSteps(steps), side.cpus());
  }

  private static LoadgenConfig config(StudyRuns.Measurement m) {
    return StudyRuns.configOf(m);
  }
}
