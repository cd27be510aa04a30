package dev.benchlake.app.study;

import dev.benchlake.analysis.stats.PairedEffect;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Before a look of a duet that compares side b with side a (the quickstart, {@code study ab}):
 * whether no open step can be decided at the look's level, told from the runs' own {@code
 * tasks.csv} in this process, without ingesting them. A look decides steps (each decided one drops
 * out of later rounds) and stops the study once every step is decided ({@link UntilDecided}), so
 * only a look at which no open step can be decided changes nothing; at α = 0.001 with 3–5 pairs
 * that is the usual case. It reads the runs as {@link RunFileLook} does, which takes the looks
 * that are not skipped.
 *
 * <p>Each step's figure is the comparison's: the median (numpy's linear quantile) of the latency,
 * end minus intended start, of the run's successful measured tasks. The pairs are the comparison
 * rounds' (not the a/a control's) runs of one {@code round} and {@code pair}, side a the baseline;
 * their effect is built as the comparison builds it ({@code PairedEffect.robust}: Huber's fit, the CPU
 * set fitted where the pairs swap two sets with two pairs each way; moving every log ratio by c moves
 * its θ by c and leaves its standard error). A step counts as
 * undecidable only when even its log ratios moved {@link #SLACK_LOG} toward each verdict leave both
 * its equivalence (TOST) and its difference p above α: the comparison's p-values, the same or
 * larger after the correction across steps, then cannot reach α either, unless its figures differ
 * from these by more than the slack (they are the same figures). So a look is skipped only where
 * it would have decided no step.
 */
final class LookPreCheck {
  /** How far each step's mean log ratio is moved toward a verdict before it is called undecidable. */
  static final double SLACK_LOG = 0.01;

  /**
   * One pair of a step: its log ratio (b over a, not finite where a median is 0), whether side a ran
   * on the first set seen (null: no set), and each side's median (ns; NaN where not read).
   */
  record Pair(double logRatio, Boolean baselineOnSetOne, double baseline, double candidate) {
    Pair(double logRatio, Boolean baselineOnSetOne) {
      this(logRatio, baselineOnSetOne, Double.NaN, Double.NaN);
    }
  }

  private final Map<Path, Map<String, Double>> mediansByRun = new HashMap<>();

  /**
   * Why no open step (every step but {@code decided}) can be decided at {@code at}; empty when one
   * might be.
   */
  Optional<String> undecidable(List<StudyRuns.Done> runs, StatisticsSettings at, java.util.Set<String> decided)
      throws IOException {
    Map<String, List<Pair>> open = new TreeMap<>(pairsByStep(runs));
    open.keySet().removeAll(decided);
    return undecidable(open, at.alpha(), at.margin());
  }

  /**
   * Pure: why none of the steps of {@code pairsByStep} can be decided at α and the margin (the
   * first step's reason, by name, and how many steps), or empty when one might be. A look that
   * decides one step drops it from later rounds, so it is taken.
   */
  static Optional<String> undecidable(Map<String, List<Pair>> pairsByStep, double alpha, double margin) {
    Optional<String> first = Optional.empty();
    for (String step : new TreeMap<>(pairsByStep).keySet()) {
      Optional<String> why = undecidable(step, pairsByStep.get(step), alpha, margin);
      if (why.isEmpty()) {
        return why;
      }
      first = first.isPresent() ? first : why;
    }
    int steps = pairsByStep.size();
    return first.map(why -> steps == 1 ? why : "none of the " + steps + " open steps can be decided at this level ("
        + why + "; and so each of the others)");
  }

  /** Why {@code step}'s pairs cannot be decided at α and the margin; empty when they might be. */
  private static Optional<String> undecidable(String step, List<Pair> pairs, double alpha, double margin) {
    if (pairs.size() < 2) {
      return Optional.of(step + " has " + pairs.size() + " pair(s)");
    }
    if (pairs.stream().anyMatch(p -> !Double.isFinite(p.logRatio()))) {
      return Optional.of(step + " has a run whose median is 0");
    }
    double[] logRatios = pairs.stream().mapToDouble(Pair::logRatio).toArray();
    boolean[] onSetOne = onSetOne(pairs);
    // ln θ as the effect estimates it (with the sets fitted, not the plain mean): shifting every
    // log ratio by c shifts it by c.
    double mean = PairedEffect.robust(logRatios, onSetOne).meanLogDifference();
    double sign = mean >= 0 ? 1 : -1;
    double toward = -sign * Math.min(SLACK_LOG, Math.abs(mean));
    double pEquivalence = PairedEffect.robust(shifted(logRatios, toward), onSetOne).pEquivalence(margin);
    double pDifference = PairedEffect.robust(shifted(logRatios, sign * SLACK_LOG), onSetOne).pDifference();
    if (!(pEquivalence <= alpha) && !(pDifference <= alpha)) {
      return Optional.of(String.format(Locale.ROOT,
          "%s cannot be decided at this level (%d pairs: its p would stay above %s even %.0f %% nearer a"
              + " verdict, equivalence %.3g, difference %.3g)", step, pairs.size(), alpha,
          100 * SLACK_LOG, pEquivalence, pDifference));
    }
    return Optional.empty();
  }

  private static double[] shifted(double[] logRatios, double by) {
    return Arrays.stream(logRatios).map(d -> d + by).toArray();
  }

  static boolean[] onSetOne(List<Pair> pairs) {
    boolean[] sets = new boolean[pairs.size()];
    for (int i = 0; i < sets.length; i++) {
      if (pairs.get(i).baselineOnSetOne() == null) {
        return null;
      }
      sets[i] = pairs.get(i).baselineOnSetOne();
    }
    return sets;
  }

  /** The comparison rounds' pairs of every step, side b over side a, in the order the runs came. */
  Map<String, List<Pair>> pairsByStep(List<StudyRuns.Done> runs) throws IOException {
    Map<String, Map<String, StudyRuns.Done>> sidesByKey = new LinkedHashMap<>();
    for (StudyRuns.Done done : runs) {
      Map<String, String> labels = done.manifest().labels();
      if (StudyLabels.AA.equals(labels.get(StudyLabels.CONTROL)) || labels.get(StudyLabels.SIDE) == null
          || labels.get(StudyLabels.ROUND) == null) {
        continue;
      }
      String key = labels.get(StudyLabels.ROUND) + "/" + labels.getOrDefault(StudyLabels.PAIR, "");
      sidesByKey.computeIfAbsent(key, k -> new HashMap<>()).put(labels.get(StudyLabels.SIDE), done);
    }
    Map<String, List<Pair>> pairs = new TreeMap<>();
    String setOne = null;
    for (Map<String, StudyRuns.Done> sides : sidesByKey.values()) {
      StudyRuns.Done a = sides.get("a");
      StudyRuns.Done b = sides.get("b");
      if (a == null || b == null) {
        continue;
      }
      String setOfA = a.manifest().labels().get(StudyLabels.CPUS);
      if (setOne == null) {
        setOne = setOfA;
      }
      Boolean aOnSetOne = setOfA == null || b.manifest().labels().get(StudyLabels.CPUS) == null ? null : setOfA.equals(setOne);
      Map<String, Double> ma = medians(a.dir());
      Map<String, Double> mb = medians(b.dir());
      for (Map.Entry<String, Double> step : ma.entrySet()) {
        Double other = mb.get(step.getKey());
        if (other != null) {
          // A median of 0 has no logarithm: the pair is kept with a ratio that is not finite, and the
          // step cannot be decided, as the comparison says of it.
          double logRatio = step.getValue() > 0 && other > 0 ? Math.log(other / step.getValue()) : Double.NaN;
          pairs.computeIfAbsent(step.getKey(), k -> new ArrayList<>())
              .add(new Pair(logRatio, aOnSetOne, step.getValue(), other));
        }
      }
    }
    return pairs;
  }

  /** A run's median latency (ns) per step, read once. */
  private Map<String, Double> medians(Path runDir) throws IOException {
    Map<String, Double> known = mediansByRun.get(runDir);
    if (known == null) {
      known = medianLatencies(RunDirectory.tasksFile(runDir));
      mediansByRun.put(runDir, known);
    }
    return known;
  }

  /** Per step, the median latency (ns) of the successful measured tasks of a {@code tasks.csv} (or .gz). */
  static Map<String, Double> medianLatencies(Path tasksCsv) throws IOException {
    Map<String, Latencies> byStep = new TreeMap<>();
    try (BufferedReader in = TaskCsv.reader(tasksCsv)) {
      String line = in.readLine(); // the header
      while ((line = in.readLine()) != null) {
        TaskRecord task;
        try {
          task = TaskCsv.parse(line);
        } catch (TaskCsv.MalformedLineException e) {
          continue; // a cut last line; the ingest keeps it as a reject
        }
        if (task.ok() && !task.warmup()) {
          byStep.computeIfAbsent(task.step(), k -> new Latencies()).add(task.endNs() - task.intendedStartNs());
        }
      }
    }
    Map<String, Double> medians = new TreeMap<>();
    byStep.forEach((step, latencies) -> medians.put(step, LinearQuantile.of(latencies.sorted(), 0.5)));
    return medians;
  }

  /** One step's latencies, as a growable primitive array: a run has up to millions of tasks. */
  private static final class Latencies {
    private long[] values = new long[1024];
    private int size;

    void add(long latencyNs) {
      if (size == values.length) {
        values = Arrays.copyOf(values, size * 2);
      }
      values[size++] = latencyNs;
    }

    long[] sorted() {
      long[] sorted = Arrays.copyOf(values, size);
      Arrays.sort(sorted);
      return sorted;
    }
  }
}
