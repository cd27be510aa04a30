package dev.benchlake.analysis.confounders;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Sides;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Whether two sides of a comparison (two versions of a trend, the two groups of a compare) ran a
 * step in the same table-maintenance state. Pure: per-run records in, {@link Confounder}s out.
 *
 * <p>Rules, per step, over the runs of each side that recorded table health:
 * <ul>
 *   <li>{@code dead_tuples}: the mean dead-tuple fraction at the step's start,
 *       {@code n_dead/(n_live+n_dead)} summed over the step's tables, differs between the sides by
 *       more than {@code threshold} (absolute). Dead tuples cost in proportion to their share of the
 *       heap and the indexes: scans step over them, index entries point at them. The default,
 *       0.05, is the size of the default equivalence margin (5 %): a smaller difference cannot by
 *       itself account for a change the verdicts would call real, a larger one can.
 *   <li>{@code autovacuum}, {@code autoanalyze}: it processed a table during the step in some
 *       runs of one side and in no run of the other. A vacuum competes for I/O and CPU during the
 *       step, and an analyze can change the plans midway.
 * </ul>
 * When a side has runs without table health the result says {@code not_recorded} with those
 * runs (and the rules apply to the runs that have it, when both sides have some): an unknown
 * state is never reported as clean. An empty list means both sides recorded it and it compares.
 */
public final class TableHealthConfounders {
  /** The default threshold of the dead-tuple fraction's difference (absolute). */
  public static final double DEFAULT_DEAD_FRACTION_THRESHOLD = 0.05;

  private final Map<String, Map<String, StepHealthRecord>> byRunAndStep;
  private final double threshold;

  /**
   * @param byRunAndStep the records, by run id and step
   * @param threshold the largest dead-fraction difference that is not flagged, in [0, 1)
   */
  public TableHealthConfounders(Map<String, Map<String, StepHealthRecord>> byRunAndStep, double threshold) {
    if (!(threshold >= 0 && threshold < 1)) {
      throw new IllegalArgumentException("the dead-tuple threshold must be in [0, 1), not " + threshold);
    }
    this.byRunAndStep = byRunAndStep;
    this.threshold = threshold;
  }

  /**
   * The confounders of {@code step} between the two sides, each named (e.g. "the baseline", or
   * "16") and with its runs.
   */
  public List<Confounder> between(String step, Sides<String> names, Sides<List<String>> runs) {
    String nameA = names.baseline();
    String nameB = names.candidate();
    List<StepHealthRecord> a = records(step, runs.baseline());
    List<StepHealthRecord> b = records(step, runs.candidate());
    List<Confounder> out = new ArrayList<>();
    String missing = (missing(nameA, runs.baseline(), a) + missing(nameB, runs.candidate(), b));
    if (!missing.isEmpty()) {
      out.add(new Confounder(Confounder.NOT_RECORDED, "table health not recorded for " + missing.substring(5) + "."));
    }
    if (a.isEmpty() || b.isEmpty()) {
      return out;
    }
    deadTuples(nameA, a, nameB, b, out);
    maintenance(Confounder.AUTOVACUUM, nameA, a, nameB, b, true, out);
    maintenance(Confounder.AUTOANALYZE, nameA, a, nameB, b, false, out);
    return out;
  }

  private List<StepHealthRecord> records(String step, List<String> runs) {
    List<StepHealthRecord> out = new ArrayList<>();
    for (String run : runs) {
      StepHealthRecord r = byRunAndStep.getOrDefault(run, Map.of()).get(step);
      if (r != null) {
        out.add(r);
      }
    }
    return out;
  }

  private static String missing(String name, List<String> runs, List<StepHealthRecord> recorded) {
    int n = runs.size() - recorded.size();
    if (n == 0) {
      return "";
    }
    return " and " + (n == runs.size() ? (n == 1 ? "the run of " : "all " + n + " runs of ") : n + " of " + runs.size()
        + " runs of ") + name;
  }

  private void deadTuples(String nameA, List<StepHealthRecord> a, String nameB, List<StepHealthRecord> b,
      List<Confounder> out) {
    double[] fa = fractions(a);
    double[] fb = fractions(b);
    if (fa.length == 0 || fb.length == 0) {
      return;
    }
    double ma = mean(fa);
    double mb = mean(fb);
    double difference = Math.abs(ma - mb);
    if (difference > threshold) {
      out.add(new Confounder(Confounder.DEAD_TUPLES, "dead-tuple fraction at the step's start: " + nameA + " "
          + describe(fa, a) + ", " + nameB + " " + describe(fb, b) + "; they differ by " + fraction(difference)
          + ", more than " + fraction(threshold) + "."));
    }
  }

  private static void maintenance(String kind, String nameA, List<StepHealthRecord> a, String nameB,
      List<StepHealthRecord> b, boolean vacuum, List<Confounder> out) {
    int[] ra = ran(a, vacuum);
    int[] rb = ran(b, vacuum);
    // Known for at least one run of each side, and ran on one side only.
    if (ra[2] == 0 || rb[2] == 0 || (ra[0] > 0) == (rb[0] > 0)) {
      return;
    }
    boolean onA = ra[0] > 0;
    int[] no = onA ? rb : ra;
    out.add(new Confounder(kind, kind + " ran during the step in " + (onA ? ran(ra, nameA) : ran(rb, nameB))
        + ", in none of " + (onA ? nameB : nameA) + "'s " + no[2] + (no[2] == 1 ? " run" : " runs") + "."));
  }

  /** {runs in which it ran, tables it processed in all, runs in which it is known}. */
  private static int[] ran(List<StepHealthRecord> side, boolean vacuum) {
    int[] out = new int[3];
    for (StepHealthRecord r : side) {
      Integer tables = vacuum ? r.tablesAutovacuumed() : r.tablesAutoanalyzed();
      if (tables != null) {
        out[2]++;
        if (tables > 0) {
          out[0]++;
          out[1] += tables;
        }
      }
    }
    return out;
  }

  private static String ran(int[] counts, String name) {
    return counts[0] + " of " + name + "'s " + counts[2] + (counts[2] == 1 ? " run" : " runs") + " (" + counts[1]
        + (counts[1] == 1 ? " table" : " tables") + ")";
  }

  private static double[] fractions(List<StepHealthRecord> side) {
    return side.stream().map(StepHealthRecord::deadFractionBefore).filter(f -> f != null)
        .mapToDouble(Double::doubleValue).toArray();
  }

  /** {@code 0.27 (n_dead 1,500 of 5,500)} for one run, {@code mean 0.27 over 3 runs (0.25–0.29)} for several. */
  private static String describe(double[] fractions, List<StepHealthRecord> side) {
    if (fractions.length == 1) {
      StepHealthRecord r = side.stream().filter(x -> x.deadFractionBefore() != null).findFirst().orElseThrow();
      return fraction(fractions[0]) + " (" + r.nDeadBefore() + " dead of " + (r.nLiveBefore() + r.nDeadBefore())
          + " tuples)";
    }
    double min = java.util.Arrays.stream(fractions).min().orElseThrow();
    double max = java.util.Arrays.stream(fractions).max().orElseThrow();
    return "mean " + fraction(mean(fractions)) + " over " + fractions.length + " runs (" + fraction(min) + "–"
        + fraction(max) + ")";
  }

  private static String fraction(double f) {
    return String.format(Locale.ROOT, "%.3f", f);
  }

  private static double mean(double[] values) {
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    return sum / values.length;
  }

  /** For the methods lists of the reports. */
  public String method() {
    return "Table-maintenance confounders (loadgen's table health): a step is flagged when the mean dead-tuple fraction"
        + " at its start (n_dead/(n_live+n_dead) over its tables) differs between the sides by more than "
        + Format.significant(threshold, 3) + ", or autovacuum or autoanalyze ran during it on one side only; sources"
        + " without table health (sysbench, pgbench, older runs) say not recorded.";
  }
}
