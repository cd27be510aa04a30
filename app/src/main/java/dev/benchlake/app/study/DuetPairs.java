package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.core.CpuList;
import dev.benchlake.loadgen.LoadgenConfig;

/**
 * A duet's pair as every plan builds it: side a and side b, each on its CPU set of the round's kind,
 * swapped by the duet's rule. The plans differ only in what each side runs and in the title.
 */
public final class DuetPairs {
  /** What side {@code side} ({@code a}, {@code b}) runs, on CPU set {@code set} (it goes in the run's labels). */
  @FunctionalInterface
  public interface SideConfig {
    LoadgenConfig of(String side, CpuList set);
  }

  private DuetPairs() {}

  public static StudyRuns.Pair pair(String title, DuetCpus cpus, DuetSchedule.Round round, SideConfig config) {
    CpuList setA = cpus.sideA(round);
    CpuList setB = cpus.sideB(round);
    return new StudyRuns.Pair(title, new SideRun("a", config.of("a", setA), setA),
        new SideRun("b", config.of("b", setB), setB), cpus.swap());
  }

  /**
   * A pair's title begins so: {@code round 3} or {@code a/a control round 2}, each kind counted on its
   * own as the status lines and the looks count them ({@link Progress#roundName}).
   */
  public static String title(DuetSchedule.Round round) {
    return Progress.roundName(round.aa(), round.ofKind());
  }

  /** A duet run's labels, {@code pair} naming which pair of its round it is (null: the round's only one). */
  public static java.util.SortedMap<String, String> labels(String studyId, String source, DuetSchedule.Round round,
      String side, CpuList set, String pair) {
    java.util.SortedMap<String, String> labels = StudyLabels.of(studyId, source, Design.DUET, round.round(), side,
        round.aa(), set);
    if (pair != null) {
      labels.put(StudyLabels.PAIR, pair);
    }
    return labels;
  }
}
