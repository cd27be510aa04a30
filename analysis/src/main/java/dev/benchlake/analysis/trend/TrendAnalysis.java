package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.GeometricMeanRatio;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.cli.BadInputException;
import java.math.BigDecimal;
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
 * base value; {@code ci95[v]} is {@link GeometricMeanRatio}'s interval against the base's runs (two
 * or more runs on each side, all positive); {@code spread[v]} = max/min − 1 over the version's
 * runs. A step is {@code noisy} when for some version the larger spread of it and of the base
 * exceeds both the change {@code |relative − 1|} and the margin: its repeats disagree more than the
 * change they are meant to show.
 *
 * <p><b>Groups</b>: per version, the geometric mean of the positive relatives of the group's steps.
 *
 * <p><b>Flags</b>: each step's consecutive versions are compared with {@link GeometricMeanRatio}
 * (Welch's t on the logs of the runs' figures); the p-values of all these tests are adjusted
 * together ({@code correction}); a change is flagged when its adjusted p is below α and it is at
 * least the margin, as an improvement or a regression by the metric's direction.
 */
public final class TrendAnalysis {
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
    if (!versions.contains(request.base())) {
      throw new BadInputException("--base " + request.base() + " is not a value of " + request.by()
          + " among the selected runs (values: " + String.join(", ", versions) + ")");
    }
    List<String> messages = new ArrayList<>(notes);
    for (String version : versions) {
      if (runs.get(version).size() == 1) {
        messages.add(request.by() + " " + version + " has one run: its relatives have no interval and no test.");
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
    List<Flag> flags = flags(byStep, steps, versions, request);
    List<GroupTrend> groups = groups(steps, versions, messages);
    return new TrendReport(request.by(), request.base(), request.metric().name(), request.metric().unit(),
        request.metric().higherIsBetter(), request.where() == null || request.where().isBlank() ? null : request.where(),
        versions, steps, groups, flags, runsInOrder(runs, versions), request.alpha(), request.margin(),
        request.correction().label(), messages, methods(request));
  }

  private static StepTrend step(String step, Map<String, List<Observation>> byVersion, List<String> versions,
      TrendRequest request, List<String> messages) {
    Map<String, Double> values = new LinkedHashMap<>();
    Map<String, Double> spread = new LinkedHashMap<>();
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (String v : versions) {
      double[] figures = figures(byVersion.get(v));
      counts.put(v, figures.length);
      values.put(v, figures.length == 0 ? null : allPositive(figures) ? GeometricMeanRatio.geometricMean(figures) : 0.0);
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
        Interval ci = GeometricMeanRatio.of(figures, baseFigures).ci95();
        interval = new Range(ci.low(), ci.high());
      }
      ci95.put(v, interval);
      if (ratio != null && !v.equals(request.base())) {
        Double noise = larger(spread.get(v), spread.get(request.base()));
        noisy |= noise != null && noise > request.margin() && noise > Math.abs(ratio - 1);
      }
    }
    return new StepTrend(step, request.groups().groupOf(step), values, relative, ci95, spread, counts, noisy);
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
              + ": no interval and no test there.");
        }
      }
    }
  }

  private static List<Flag> flags(Map<String, Map<String, List<Observation>>> byStep, List<StepTrend> steps,
      List<String> versions, TrendRequest request) {
    record Candidate(String step, String from, String to, GeometricMeanRatio.Result result) {}
    List<Candidate> tests = new ArrayList<>();
    for (StepTrend s : steps) {
      Map<String, List<Observation>> byVersion = byStep.get(s.step());
      for (int i = 1; i < versions.size(); i++) {
        double[] from = figures(byVersion.get(versions.get(i - 1)));
        double[] to = figures(byVersion.get(versions.get(i)));
        if (from.length >= 2 && to.length >= 2 && allPositive(from) && allPositive(to)) {
          tests.add(new Candidate(s.step(), versions.get(i - 1), versions.get(i), GeometricMeanRatio.of(to, from)));
        }
      }
    }
    double[] p = tests.stream().mapToDouble(t -> t.result().p()).toArray();
    double[] adjusted = request.correction().adjust(p);
    List<Flag> flags = new ArrayList<>();
    for (int i = 0; i < tests.size(); i++) {
      Candidate t = tests.get(i);
      double change = t.result().ratio();
      if (adjusted[i] < request.alpha() && Math.abs(change - 1) >= request.margin()) {
        boolean better = (change > 1) == request.metric().higherIsBetter();
        Interval ci = t.result().ci95();
        flags.add(new Flag(t.step(), t.from(), t.to(), change, new Range(ci.low(), ci.high()), p[i], adjusted[i],
            better ? "improvement" : "regression"));
      }
    }
    return flags;
  }

  private static List<GroupTrend> groups(List<StepTrend> steps, List<String> versions, List<String> messages) {
    Map<String, List<StepTrend>> byGroup = new TreeMap<>(StepGroups.order());
    steps.forEach(s -> byGroup.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
    List<GroupTrend> groups = new ArrayList<>();
    byGroup.forEach((group, members) -> {
      Map<String, Double> geomean = new LinkedHashMap<>();
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (String v : versions) {
        double[] relatives = members.stream().map(s -> s.relative().get(v)).filter(r -> r != null && r > 0)
            .mapToDouble(Double::doubleValue).toArray();
        members.stream().filter(s -> Double.valueOf(0).equals(s.relative().get(v))).forEach(s -> messages.add("step "
            + s.step() + " is 0 at " + v + ": left out of the geometric mean of " + group + "."));
        geomean.put(v, relatives.length == 0 ? null : GeometricMeanRatio.geometricMean(relatives));
        counts.put(v, relatives.length);
      }
      groups.add(new GroupTrend(group, geomean, counts));
    });
    return groups;
  }

  private static List<String> methods(TrendRequest request) {
    return List.of(
        "Per run and step: " + request.metric().name() + " (" + request.metric().unit() + ", "
            + (request.metric().higherIsBetter() ? "higher" : "lower") + " is better); from tasks when the run has them "
            + "(throughput: successful tasks per second from the first to the last end; latency: exact quantiles, numpy's"
            + " linear definition), else from the run's whole-run step_metrics.",
        "Value of a version: the geometric mean over its runs; relative = value / value at " + request.base() + ".",
        "95% interval of a relative: Welch's t interval on the difference of the mean logs of the runs' figures,"
            + " exponentiated (two runs or more at both versions).",
        "Noisy: for some version, the repeats (max/min − 1 over the runs, of it or of the base) disagree by more than"
            + " the change |relative − 1| and more than the margin ±" + Format.percent(request.margin()) + ".",
        "Flags: consecutive versions compared with Welch's t on the logs of the runs' figures; p-values adjusted together"
            + " (" + request.correction().label() + "); flagged when the adjusted p < " + Format.significant(request.alpha(), 3)
            + " and the change is at least ±" + Format.percent(request.margin()) + ".",
        "Groups: by step name (point query, range query, writes, other) unless a groups file says otherwise;"
            + " per version the geometric mean of the group's positive relatives.");
  }

  /** Versions in numeric order when every one is a number, else in text order. */
  public static Comparator<String> versionOrder() {
    return (a, b) -> {
      BigDecimal x = number(a);
      BigDecimal y = number(b);
      if (x != null && y != null) {
        int c = x.compareTo(y);
        return c != 0 ? c : a.compareTo(b);
      }
      if (x != null || y != null) {
        return x != null ? -1 : 1;
      }
      return a.compareTo(b);
    };
  }

  private static BigDecimal number(String text) {
    try {
      return new BigDecimal(text.trim());
    } catch (NumberFormatException e) {
      return null;
    }
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

  private static Double larger(Double a, Double b) {
    return a == null ? b : b == null ? a : Double.valueOf(Math.max(a, b));
  }
}
