package dev.benchlake.app.study;

import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.app.study.duet.CpuSwap;

/**
 * The labels a study puts on its runs, one definition for every study command: what ingest,
 * compare and trend select and pair them by. Those that compare pairs by are {@link Pairing}'s, so
 * that writer and reader cannot drift apart.
 */
public final class StudyLabels {
  /** Ties a study's runs together; its reports select on it. */
  public static final String STUDY_ID = "study_id";
  /** {@link Design#id()}. */
  public static final String DESIGN = Pairing.DESIGN_LABEL;
  /** The round, from 1; in a duet the two runs of a pair share it. */
  public static final String ROUND = Pairing.ROUND_LABEL;
  /** A duet's side: {@code a} (the baseline's CPU set this round) or {@code b}. */
  public static final String SIDE = "side";
  /**
   * The CPU set the run's client and embedded server were pinned to ({@code taskset -c} syntax): for
   * the whole run with {@link CpuSwap#PER_ROUND}, at the start of each step's window (and every
   * other period of it) with {@link CpuSwap#IN_WINDOW}.
   */
  public static final String CPUS = Pairing.CPUS_LABEL;
  /** {@value #AA} on the runs of the a/a control: both sides are the baseline. */
  public static final String CONTROL = "control";
  public static final String AA = "aa";
  /**
   * In a study of several pairs per round, which pair: study versions' duets, e.g. {@code 11v14};
   * the quickstart's, the workload ({@code select-update}, {@code sysbench}).
   */
  public static final String PAIR = Pairing.PAIR_LABEL;
  /** A selector term that leaves the a/a control's runs out. */
  public static final String NOT_CONTROL = CONTROL + "!=" + AA;

  private StudyLabels() {}

  /** The selector of one side's comparison runs of a study ({@code study_id=…,side=a,control!=aa}). */
  public static String comparisonSide(String studyId, String side) {
    return STUDY_ID + "=" + studyId + "," + SIDE + "=" + side + "," + NOT_CONTROL;
  }

  /**
   * The labels of one run of a study.
   *
   * @param studyId null for none (the quickstart's warehouse holds one study only)
   * @param source the command, e.g. {@code study-ab}
   * @param side {@code a} or {@code b}, or null (the runs of sequential and interleaved version studies
   *     are told apart by their major)
   * @param aa whether the run belongs to the a/a control
   * @param cpus a duet run's CPU set, or null
   */
  public static java.util.SortedMap<String, String> of(String studyId, String source, Design design, int round,
      String side, boolean aa, dev.benchlake.core.CpuList cpus) {
    java.util.SortedMap<String, String> labels = new java.util.TreeMap<>();
    labels.put(dev.benchlake.core.Labels.OS, System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT));
    labels.put("source", source);
    if (studyId != null) {
      labels.put(STUDY_ID, studyId);
    }
    labels.put(DESIGN, design.id());
    labels.put(ROUND, Integer.toString(round));
    if (side != null) {
      labels.put(SIDE, side);
    }
    if (aa) {
      labels.put(CONTROL, AA);
    }
    if (cpus != null) {
      labels.put(CPUS, cpus.toString());
    }
    return labels;
  }
}
