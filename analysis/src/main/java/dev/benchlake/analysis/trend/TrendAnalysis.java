package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.EDivisive;
import dev.benchlake.analysis.stats.GeometricMean;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.LogRatio;
import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The trend from per-run figures: pure, observations in, {@link TrendReport} out.
 *
 * <p><b>Per step and version</b>: {@code values[v]} is the geometric mean of the runs' figures (0
 * when a run has 0); {@code relative[v] = values[v]/values[base]}, undefined without a positive
 * base value; {@code ci95[v]} is {@link LogRatio}'s 95 % interval (Welch's t on the logs of the
 * runs' figures, exponentiated) against the base's runs, with two or more runs on each side, all
 * positive; {@code spread[v]} = max/min − 1 over the version's runs, descriptive. A step is
 * {@code noisy} when for some version its interval is wider than the margin: half of
 * {@code ln(high/low)} exceeds {@code ln(1 + margin)}, so its runs cannot tell a change of the
 * margin from none.
 *
 * <p><b>Calls</b>, in the four verdicts of {@link RatioDecisions} (α, margin, correction of the
 * request; throughputs: higher is better, latencies: lower is better): every step's version
 * against the base is one family ({@code verdict}, with {@code runsNeeded} when inconclusive);
 * every step's version against the previous version is another ({@code versusPrevious}; the
 * {@code faster} / {@code slower} ones are the {@code flags}). A relative without an interval (one
 * run, or a figure of 0) is {@code inconclusive}, with the reason among the messages.
 *
 * <p><b>Groups</b>: per version, {@code geomean} is the geometric mean of the positive relatives
 * of the group's steps. Its interval comes from per-run group figures: for the steps S that
 * geomean covers at version v, each run r (of v, and of the base) that has a positive figure for
 * every step of S gets {@code g_r = exp(mean_{s∈S} ln(x_{r,s}/values_base[s]))}, the geometric mean
 * of its relative figures; {@code ci95[v]} is {@link LogRatio}'s interval of those of v against
 * those of the base (two such runs or more on each side). When every run has every step, the
 * ratio of that interval is {@code geomean[v]} exactly.
 */
public final class TrendAnalysis {
  private static final double CONFIDENCE = 0.95;

  private TrendAnalysis() {}

  /** One run's figure for one step. */
  public record Observation(String runId, String version, String step, double value) {}

  /**
   * @param runs the selected runs of each version (versions without any observation included)
   * @param notes messages already known (from reading the sources)
   * @throws BadInputException when the base is not one of the versions
   */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs, TrendRequest request,
      List<String> notes) {
    List<String> versions = runs.keySet().stream().sorted(versionOrder()).toList();
    if (request.base() == null && !versions.isEmpty()) {
      // Without --base, the first version (the oldest date, for --by date) is the base.
      request = request.withBase(versions.get(0));
    }
    if (!versions.contains(request.base())) {
      throw new BadInputException("--base " + request.base() + " is not a value of " + request.by()
          + " among the selected runs (values: " + String.join(", ", versions) + ")");
    }
    List<String> messages = new ArrayList<>(notes);
    for (String version : versions) {
      if (runs.get(version).size() == 1) {
        messages.add(request.by() + " " + version + " has one run: its relatives have no interval, so its calls are"
            + " inconclusive.");
      }
    }
    Map<String, Map<String, List<Observation>>> byStep = new TreeMap<>();
    for (Observation o : observations) {
      if (!Double.isFinite(o.value()) || o.value() < 0) {
        messages.add("run " + o.runId() + ", step " + o.step() + ": " + request.metric().name() + " = " + o.value()
            + " is not a valid figure; left out.");
        continue;
      }
      byStep.computeIfAbsent(o.step(), s -> new TreeMap<>()).computeIfAbsent(o.version(), v -> new ArrayList<>()).add(o);
    }
    List<StepTrend> steps = new ArrayList<>();
    for (Map.Entry<String, Map<String, List<Observation>>> e : byStep.entrySet()) {
      steps.add(step(e.getKey(), e.getValue(), versions, request, messages));
    }
    steps.sort(Comparator.comparing(StepTrend::group, StepGroups.order()).thenComparing(StepTrend::step));
    singleRunSteps(steps, versions, runs, request, messages);
    steps = callsAgainstBase(steps, byStep, versions, request);
    List<Flag> flags = new ArrayList<>();
    steps = callsAgainstPrevious(steps, byStep, versions, request, flags);
    List<GroupTrend> groups = groups(steps, byStep, versions, request, messages);
    return new TrendReport(request.by(), request.base(), request.metric().name(), request.metric().unit(),
        request.metric().higherIsBetter(), request.where() == null || request.where().isBlank() ? null : request.where(),
        versions, steps, groups, flags, runsInOrder(runs, versions), request.alpha(), request.margin(),
        request.correction().label(), request.changePointAlpha(), messages, methods(request), TrendConfounders.NONE);
  }

  private static StepTrend step(String step, Map<String, List<Observation>> byVersion, List<String> versions,
      TrendRequest request, List<String> messages) {
    Map<String, Double> values = new LinkedHashMap<>();
    Map<String, Double> spread = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String v : versions) {
      double[] figures = figures(byVersion.get(v));
      counts.put(v, figures.length);
      values.put(v, figures.length == 0 ? null : allPositive(figures) ? GeometricMean.of(figures) : 0.0);
      if (figures.length > 0 && !allPositive(figures)) {
        messages.add("step " + step + ", " + request.by() + " " + v + ": a run has " + request.metric().name()
            + " = 0, so its geometric mean is 0 and it has no interval.");
      }
      spread.put(v, figures.length >= 2 && allPositive(figures) ? max(figures) / min(figures) - 1 : null);
    }
    Double baseValue = values.get(request.base());
    if (baseValue == null) {
      messages.add("step " + step + " has no value at " + request.by() + " " + request.base() + ": no relatives.");
    } else if (baseValue == 0) {
      messages.add("step " + step + " is 0 at " + request.by() + " " + request.base() + ": no relatives.");
    }
    double[] baseFigures = figures(byVersion.get(request.base()));
    Map<String, Double> relative = new LinkedHashMap<>();
    Map<String, Range> ci95 = new LinkedHashMap<>();
    boolean noisy = false;
    for (String v : versions) {
      Double value = values.get(v);
      Double ratio = baseValue == null || baseValue == 0 || value == null ? null : value / baseValue;
      relative.put(v, ratio);
      double[] figures = figures(byVersion.get(v));
      Range interval = null;
      if (ratio != null && !v.equals(request.base()) && figures.length >= 2 && baseFigures.length >= 2
          && allPositive(figures) && allPositive(baseFigures)) {
        Interval ci = LogRatio.of(baseFigures, figures).interval(CONFIDENCE);
        interval = new Range(ci.low(), ci.high());
      }
      ci95.put(v, interval);
      // Wider than the margin: these runs cannot tell a change of the margin from none.
      noisy |= interval != null && Math.log(interval.high() / interval.low()) / 2 > Math.log1p(request.margin());
    }
    List<ChangePoint> changePoints = ChangePoints.of(step, byVersion, versions, EDivisive.at(request.changePointAlpha()), messages);
    return new StepTrend(step, request.groups().groupOf(step), values, relative, ci95, spread, counts, noisy, Map.of(),
        Map.of(), Map.of(), changePoints);
  }

  /** Steps measured by one run of a version that has several: no interval and no test there. */
  private static void singleRunSteps(List<StepTrend> steps, List<String> versions, Map<String, List<String>> runs,
      TrendRequest request, List<String> messages) {
    for (String v : versions) {
      if (runs.get(v).size() > 1) {
        List<String> single = steps.stream().filter(s -> Integer.valueOf(1).equals(s.runs().get(v))).map(StepTrend::step)
            .toList();
        if (!single.isEmpty()) {
          messages.add(request.by() + " " + v + ": " + String.join(", ", single) + (single.size() == 1 ? " has one run" : " have one run each")
              + ": no interval there, so its calls are inconclusive.");
        }
      }
    }
  }

  /** One step's per-run figures at one version, by run id (sorted: reproducible). */
  private static Map<String, Double> figuresByRun(List<Observation> observations) {
    Map<String, Double> byRun = new TreeMap<>();
    if (observations != null) {
      observations.forEach(o -> byRun.put(o.runId(), o.value()));
    }
    return byRun;
  }

  /** A {@link LogRatio} of two versions' figures of one step, or null when the test is undefined. */
  private static LogRatio logRatio(List<Observation> baseline, List<Observation> candidate) {
    double[] from = figures(baseline);
    double[] to = figures(candidate);
    return from.length >= 2 && to.length >= 2 && allPositive(from) && allPositive(to) ? LogRatio.of(from, to) : null;
  }

  private static List<StepTrend> callsAgainstBase(List<StepTrend> steps, Map<String, Map<String, List<Observation>>> byStep,
      List<String> versions, TrendRequest request) {
    record Test(int step, String version, LogRatio ratio) {}
    List<Test> tests = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      Map<String, List<Observation>> byVersion = byStep.get(steps.get(i).step());
      for (String v : versions) {
        LogRatio ratio = v.equals(request.base()) || steps.get(i).relative().get(v) == null ? null
            : logRatio(byVersion.get(request.base()), byVersion.get(v));
        if (ratio != null) {
          tests.add(new Test(i, v, ratio));
        }
      }
    }
    List<Decision> decisions = decide(tests.stream().map(Test::ratio).toList(), request);
    List<Map<String, String>> verdicts = new ArrayList<>();
    List<Map<String, Integer>> runsNeeded = new ArrayList<>();
    for (StepTrend s : steps) {
      Map<String, String> verdict = new LinkedHashMap<>();
      Map<String, Integer> needed = new LinkedHashMap<>();
      for (String v : versions) {
        // A relative without a test (one run, a figure of 0) cannot be decided.
        verdict.put(v, v.equals(request.base()) || s.relative().get(v) == null ? null : "inconclusive");
        needed.put(v, null);
      }
      verdicts.add(verdict);
      runsNeeded.add(needed);
    }
    for (int t = 0; t < tests.size(); t++) {
      Decision d = decisions.get(t);
      verdicts.get(tests.get(t).step()).put(tests.get(t).version(), d.verdict().jsonName());
      if (d.runsNeededPerGroup() > 0) {
        runsNeeded.get(tests.get(t).step()).put(tests.get(t).version(), d.runsNeededPerGroup());
      }
    }
    List<StepTrend> decided = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      StepTrend s = steps.get(i);
      decided.add(new StepTrend(s.step(), s.group(), s.values(), s.relative(), s.ci95(), s.spread(), s.runs(), s.noisy(),
          verdicts.get(i), runsNeeded.get(i), s.versusPrevious(), s.changePoints()));
    }
    return decided;
  }

  private static List<StepTrend> callsAgainstPrevious(List<StepTrend> steps,
      Map<String, Map<String, List<Observation>>> byStep, List<String> versions, TrendRequest request, List<Flag> flags) {
    record Test(int step, int to, LogRatio ratio) {}
    List<Test> tests = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      Map<String, List<Observation>> byVersion = byStep.get(steps.get(i).step());
      for (int v = 1; v < versions.size(); v++) {
        LogRatio ratio = logRatio(byVersion.get(versions.get(v - 1)), byVersion.get(versions.get(v)));
        if (ratio != null) {
          tests.add(new Test(i, v, ratio));
        }
      }
    }
    List<Decision> decisions = decide(tests.stream().map(Test::ratio).toList(), request);
    List<Map<String, String>> calls = new ArrayList<>();
    for (StepTrend s : steps) {
      Map<String, String> call = new LinkedHashMap<>();
      for (int v = 0; v < versions.size(); v++) {
        // Both versions have a figure but no test: as undecidable as against the base.
        boolean both = v > 0 && s.values().get(versions.get(v - 1)) != null && s.values().get(versions.get(v)) != null;
        call.put(versions.get(v), both ? "inconclusive" : null);
      }
      calls.add(call);
    }
    for (int t = 0; t < tests.size(); t++) {
      Test test = tests.get(t);
      Decision d = decisions.get(t);
      calls.get(test.step()).put(versions.get(test.to()), d.verdict().jsonName());
      if (d.verdict() == Verdict.FASTER || d.verdict() == Verdict.SLOWER) {
        Interval ci = test.ratio().interval(CONFIDENCE);
        flags.add(new Flag(steps.get(test.step()).step(), versions.get(test.to() - 1), versions.get(test.to()),
            test.ratio().ratio(), new Range(ci.low(), ci.high()), test.ratio().pDifference(), d.pDifferenceAdjusted(),
            d.verdict() == Verdict.FASTER ? "improvement" : "regression", d.verdict().jsonName(), d.beyondMargin()));
      }
    }
    List<StepTrend> decided = new ArrayList<>();
    for (int i = 0; i < steps.size(); i++) {
      StepTrend s = steps.get(i);
      decided.add(new StepTrend(s.step(), s.group(), s.values(), s.relative(), s.ci95(), s.spread(), s.runs(), s.noisy(),
          s.verdict(), s.runsNeeded(), calls.get(i), s.changePoints()));
    }
    return decided;
  }

  private static List<Decision> decide(List<LogRatio> family, TrendRequest request) {
    return RatioDecisions.decide(family, request.alpha(), request.margin(), request.correction(),
        !request.metric().higherIsBetter());
  }

  private static List<GroupTrend> groups(List<StepTrend> steps, Map<String, Map<String, List<Observation>>> byStep,
      List<String> versions, TrendRequest request, List<String> messages) {
    Map<String, List<StepTrend>> byGroup = new TreeMap<>(StepGroups.order());
    steps.forEach(s -> byGroup.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
    List<GroupTrend> groups = new ArrayList<>();
    byGroup.forEach((group, members) -> {
      Map<String, Double> geomean = new LinkedHashMap<>();
      Map<String, Range> ci95 = new LinkedHashMap<>();
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (String v : versions) {
        List<StepTrend> covered = members.stream().filter(s -> s.relative().get(v) != null && s.relative().get(v) > 0)
            .toList();
        double[] relatives = covered.stream().mapToDouble(s -> s.relative().get(v)).toArray();
        members.stream().filter(s -> Double.valueOf(0).equals(s.relative().get(v))).forEach(s -> messages.add("step "
            + s.step() + " is 0 at " + v + ": left out of the geometric mean of " + group + "."));
        geomean.put(v, relatives.length == 0 ? null : GeometricMean.of(relatives));
        counts.put(v, relatives.length);
        ci95.put(v, relatives.length == 0 || v.equals(request.base()) ? null
            : groupInterval(group, covered, byStep, v, request, messages));
      }
      groups.add(new GroupTrend(group, geomean, ci95, counts));
    });
    return groups;
  }

  /**
   * The interval of a group's geometric mean at {@code version}, from per-run group figures, or
   * null (with the reason among the messages) without two complete runs on each side.
   */
  private static Range groupInterval(String group, List<StepTrend> covered,
      Map<String, Map<String, List<Observation>>> byStep, String version, TrendRequest request, List<String> messages) {
    List<Double> base = new ArrayList<>();
    List<Double> at = new ArrayList<>();
    int leftOutBase = runGroupFigures(covered, byStep, request.base(), request.base(), base);
    int leftOutAt = runGroupFigures(covered, byStep, version, request.base(), at);
    String where = group + " at " + request.by() + " " + version + ": ";
    if (base.size() < 2 || at.size() < 2) {
      // With fewer than two runs in all, the one-run message has said it already.
      if (base.size() + leftOutBase >= 2 && at.size() + leftOutAt >= 2) {
        messages.add(where + "no interval, as fewer than two runs at " + request.base() + " or at " + version
            + " have a positive figure for each of its " + covered.size() + " steps (steps measured by different runs"
            + " have no per-run group figure).");
      }
      return null;
    }
    if (leftOutBase + leftOutAt > 0) {
      messages.add(where + (leftOutBase + leftOutAt) + " run(s) lack a positive figure for one of its " + covered.size()
          + " steps and are left out of its interval.");
    }
    Interval ci = LogRatio.of(doubles(base), doubles(at)).interval(CONFIDENCE);
    return new Range(ci.low(), ci.high());
  }

  /**
   * Adds, per run of {@code version} that has a positive figure for every covered step, the
   * geometric mean of its relative figures {@code x_{r,s}/values_base[s]}; returns how many runs
   * had to be left out.
   */
  private static int runGroupFigures(List<StepTrend> covered, Map<String, Map<String, List<Observation>>> byStep,
      String version, String base, List<Double> into) {
    Map<String, double[]> logsByRun = new TreeMap<>();
    for (int k = 0; k < covered.size(); k++) {
      StepTrend s = covered.get(k);
      double baseValue = s.values().get(base);
      for (Map.Entry<String, Double> e : figuresByRun(byStep.get(s.step()).get(version)).entrySet()) {
        // NaN marks a step the run lacks or cannot have a logarithm of.
        double[] logs = logsByRun.computeIfAbsent(e.getKey(), r -> nans(covered.size()));
        logs[k] = e.getValue() > 0 ? Math.log(e.getValue() / baseValue) : Double.NaN;
      }
    }
    int leftOut = 0;
    for (double[] logs : logsByRun.values()) {
      double sum = 0;
      for (double x : logs) {
        sum += x;
      }
      if (Double.isNaN(sum)) {
        leftOut++;
      } else {
        into.add(Math.exp(sum / logs.length));
      }
    }
    return leftOut;
  }

  private static double[] doubles(List<Double> values) {
    return values.stream().mapToDouble(Double::doubleValue).toArray();
  }

  private static double[] nans(int n) {
    double[] values = new double[n];
    java.util.Arrays.fill(values, Double.NaN);
    return values;
  }

  private static List<String> methods(TrendRequest request) {
    String margin = Format.percent(request.margin());
    return List.of(
        "Per run and step: " + request.metric().name() + " (" + request.metric().unit() + ", "
            + (request.metric().higherIsBetter() ? "higher" : "lower") + " is better); from tasks when the run has them "
            + "(throughput: successful tasks per second from the first to the last end; latency: exact quantiles, numpy's"
            + " linear definition), else from the run's whole-run step_metrics.",
        "Value of a version: the geometric mean over its runs; relative = value / value at " + request.base() + ".",
        "95% interval of a relative: Welch's t interval on the difference of the mean logs of the runs' figures,"
            + " exponentiated (two runs or more at both versions).",
        "Noisy: for some version, the 95% interval of the relative is wider than ±" + margin + " (its half-width on the"
            + " log scale exceeds ln(1 + " + margin + ")).",
        "Calls: faster, slower, equivalent or inconclusive, from Welch's t on the logs of the runs' figures with the band"
            + " [1/(1+M), 1+M], M = " + margin + ": equivalent when the adjusted TOST p ≤ " + Format.significant(request.alpha(), 3)
            + ", else faster/slower when the adjusted difference p ≤ " + Format.significant(request.alpha(), 3)
            + ", else inconclusive, with the runs per version that 80% power would need. Against the base and against the"
            + " previous version, each a family with its p-values adjusted together (" + request.correction().label()
            + "); the changes listed are the faster/slower calls between consecutive versions.",
        "Change points: E-divisive means (Matteson & James 2014, as Apache Otava) on the natural logs of each step's"
            + " per-run figures in " + request.by() + " order, a change only between two values of " + request.by()
            + ", each side at least " + EDivisive.DEFAULT_MIN_SIZE + " runs; each split tested by "
            + EDivisive.DEFAULT_PERMUTATIONS + " permutations of its segment (seeded: the same data give the same"
            + " result), kept when p ≤ " + Format.significant(request.changePointAlpha(), 3) + " (--change-point-alpha,"
            + " a level of its own, stricter than the calls', because every step is tested) and Welch's t on the two sides'"
            + " logs says their means differ at that level too (the energy distance also answers to a change of"
            + " spread alone, which is no shift of level), then the segments searched again; before/after are the"
            + " geometric means of the segments either side. Each step is tested on its own: among many steps that"
            + " do not change, about " + Format.percent(request.changePointAlpha()) + " of them may still show one.",
        "Groups: by step name (point query, range query, writes, other; for mytools names <test>_range=<R> the"
            + " study's five: point query parts 1 and 2, range query parts 1 and 2, writes) unless a groups file says"
            + " otherwise;"
            + " per version the geometric mean of the group's positive relatives; its 95% interval from per-run group"
            + " figures (each run's geometric mean of its relative figures over those steps), Welch's t on their logs.");
  }

  /** Versions by their dot-separated parts, numbers as numbers ({@link VersionOrder}). */
  public static Comparator<String> versionOrder() {
    return VersionOrder.INSTANCE;
  }

  private static Map<String, List<String>> runsInOrder(Map<String, List<String>> runs, List<String> versions) {
    Map<String, List<String>> ordered = new LinkedHashMap<>();
    versions.forEach(v -> ordered.put(v, runs.get(v).stream().sorted().toList()));
    return ordered;
  }

  private static double[] figures(List<Observation> observations) {
    return observations == null ? new double[0] : observations.stream().mapToDouble(Observation::value).toArray();
  }

  private static boolean allPositive(double[] values) {
    for (double v : values) {
      if (!(v > 0)) {
        return false;
      }
    }
    return true;
  }

  private static double max(double[] values) {
    return java.util.Arrays.stream(values).max().orElseThrow();
  }

  private static double min(double[] values) {
    return java.util.Arrays.stream(values).min().orElseThrow();
  }
}
