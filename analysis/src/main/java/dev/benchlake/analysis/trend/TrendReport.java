package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.CallTally;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.Direction;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.ResourceFigures;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RunsAdvice;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;
import java.util.Map;

/**
 * The result of {@code benchlake trend}: per step one record per version (the metric, its ratio to
 * the base version with its interval and call, the call against the previous version, the
 * table-maintenance check), per group the geometric mean of those ratios with its interval, and
 * the changes ({@code faster} / {@code slower}) between consecutive versions. The JSON, Markdown
 * and HTML writers only read it. Every step and group holds every version, in {@link #versions}
 * order.
 *
 * @param metric the metric's name, e.g. {@code qps}
 * @param direction whether a ratio above 1 is an improvement (throughput) or a regression (latency)
 * @param runs the runs of each version
 * @param settings α, the margin and the correction of the calls and flags
 * @param changePointAlpha significance level of each change point
 * @param messages what could not be computed and why, one sentence each
 * @param warnings what a reader must know before trusting the calls, one sentence each (e.g. no
 *     correction over several tests)
 * @param methods how the figures were computed, one line each
 * @param design how the versions' runs pair with the base's: {@code unpaired}, {@code duet},
 *     {@code paired-by:<labels>}, or {@code mixed} when versions differ
 *     ({@link dev.benchlake.analysis.report.Pairing})
 * @param orderBy the runs column or label that ordered the versions ({@code --order-by}); null when
 *     they are dates, timestamps or versions, ordered as such
 * @param gaps when the versions are dates: the days between the first and the last without a run
 *     (a missed night), in order; null when they are not dates
 * @param cutShort a study that stopped before its plan's end, which the headline leads with; null
 *     otherwise
 * @param scope what each version's runs measured ({@link Scope}); null only for a report made
 *     without its runs (a test of the analysis)
 * @param comparison where a study reports this trend beside a comparison of the same runs whose
 *     figure differs (another metric, another estimator): one sentence saying why and whose calls are
 *     the study's, so that two pages of one study do not tell two stories (issue 49); null otherwise
 */
public record TrendReport(String by, String base, String metric, String unit, Direction direction, String where,
    List<String> versions, List<StepTrend> steps, List<GroupTrend> groups, List<Flag> flags,
    Map<String, List<String>> runs, StatisticsSettings settings, double changePointAlpha, List<String> messages,
    List<String> warnings, List<String> methods, String design, String orderBy, List<String> gaps,
    CutShort cutShort, Scope scope, String comparison, Map<String, Map<String, Resources>> resources) {

  /**
   * One step's per-operation resource figures at one version against the base ({@link ResourceFigures},
   * paired as the call against the base is), and the sentence of a version called faster or slower.
   */
  public record Resources(ResourceFigures figures, String sentence) {}

  /** A trend without resource figures. */
  public TrendReport(String by, String base, String metric, String unit, Direction direction, String where,
      List<String> versions, List<StepTrend> steps, List<GroupTrend> groups, List<Flag> flags,
      Map<String, List<String>> runs, StatisticsSettings settings, double changePointAlpha, List<String> messages,
      List<String> warnings, List<String> methods, String design, String orderBy, List<String> gaps,
      CutShort cutShort, Scope scope, String comparison) {
    this(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings, changePointAlpha,
        messages, warnings, methods, design, orderBy, gaps, cutShort, scope, comparison, Map.of());
  }

  /** A trend reported alone: no comparison beside it. */
  public TrendReport(String by, String base, String metric, String unit, Direction direction, String where,
      List<String> versions, List<StepTrend> steps, List<GroupTrend> groups, List<Flag> flags,
      Map<String, List<String>> runs, StatisticsSettings settings, double changePointAlpha, List<String> messages,
      List<String> warnings, List<String> methods, String design, String orderBy, List<String> gaps,
      CutShort cutShort, Scope scope) {
    this(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings, changePointAlpha,
        messages, warnings, methods, design, orderBy, gaps, cutShort, scope, null);
  }

  /**
   * The same report with these warnings and methods: what a study adds (its a/a control, the look
   * it stopped at) to the trend it reports.
   */
  public TrendReport withNotes(List<String> warnings, List<String> methods) {
    return new TrendReport(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings,
        changePointAlpha, messages, List.copyOf(warnings), List.copyOf(methods), design, orderBy, gaps, cutShort, scope,
        comparison, resources);
  }

  /** This report as the report of a study cut short: its headline leads with it. */
  public TrendReport withCutShort(CutShort cut) {
    return new TrendReport(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings,
        changePointAlpha, messages, warnings, methods, design, orderBy, gaps, cut, scope, comparison, resources);
  }

  /** This report with what its runs measured. */
  public TrendReport withScope(Scope runsScope) {
    return new TrendReport(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings,
        changePointAlpha, messages, warnings, methods, design, orderBy, gaps, cutShort, runsScope, comparison, resources);
  }

  /** This report beside a comparison of the same runs: {@code sentence} says how their figures relate. */
  public TrendReport withComparison(String sentence) {
    return new TrendReport(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings,
        changePointAlpha, messages, warnings, methods, design, orderBy, gaps, cutShort, scope, sentence, resources);
  }

  /**
   * This report with each step's resource figures by version (step, then version), one more line in
   * its methods saying what they are; as it is when no step has any.
   */
  public TrendReport withResources(Map<String, Map<String, Resources>> figures) {
    if (figures.isEmpty()) {
      return this;
    }
    List<String> all = new java.util.ArrayList<>(methods);
    all.add(ResourceFigures.METHOD);
    return new TrendReport(by, base, metric, unit, direction, where, versions, steps, groups, flags, runs, settings,
        changePointAlpha, messages, warnings, List.copyOf(all), design, orderBy, gaps, cutShort, scope, comparison,
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(figures)));
  }

  /**
   * Whether the change points were found on the paired figures, each pair's shared moment taken out
   * ({@link PairedFigures}), as in every design but {@code unpaired} (issue 47); their levels and
   * ratios are then of those figures too.
   */
  public boolean changePointsPaired() {
    return ChangePoints.onPairedFigures(design);
  }

  /** A step's resource figures at a version; null where there are none. */
  public Resources resourcesAt(String step, String version) {
    return resources.getOrDefault(step, Map.of()).get(version);
  }

  /**
   * Whether the versions form a series (versions, dates, an {@code --order-by}, or two values): false
   * for names, which are only compared against the base, without change points or consecutive calls.
   */
  public boolean ordered() {
    return !SeriesOrder.names(base, orderBy, versions);
  }

  /** The days without a run after {@code version} and before the next version (empty: none, or not dates). */
  public List<String> gapAfter(String version) {
    int at = versions.indexOf(version);
    if (gaps == null || at < 0 || at + 1 >= versions.size()) {
      return List.of();
    }
    String next = versions.get(at + 1);
    // yyyy-MM-dd sorts as it reads
    return gaps.stream().filter(d -> d.compareTo(version) > 0 && d.compareTo(next) < 0).toList();
  }

  public boolean higherIsBetter() {
    return direction == Direction.HIGHER_IS_BETTER;
  }

  /** The calls of every step's versions against the base, the warm-up's left out ({@link #warmUpSteps}). */
  public CallTally callsAgainstBase() {
    return CallTally.of(measuredSteps().flatMap(s -> s.versions().stream()).map(VersionFigure::verdict)
        .filter(java.util.Objects::nonNull));
  }

  /** The versions compared against the base: every version but the base, in order. */
  public List<String> compared() {
    return versions.stream().filter(v -> !v.equals(base)).toList();
  }

  /** The calls of every step at {@code version} against the base, the warm-up's left out. */
  public CallTally callsAgainstBase(String version) {
    return CallTally.of(measuredSteps().map(s -> s.at(version).verdict()).filter(java.util.Objects::nonNull));
  }

  /** The calls of every step's versions against the previous version, the warm-up's left out. */
  public CallTally callsBetweenVersions() {
    return CallTally.of(measuredSteps().flatMap(s -> s.versions().stream()).map(VersionFigure::versusPrevious)
        .filter(java.util.Objects::nonNull));
  }

  /** The calls of every group's versions against the base (the warm-up has none). */
  public CallTally callsOfGroups() {
    return CallTally.of(groups.stream().flatMap(g -> g.versions().stream()).map(GroupFigure::verdict)
        .filter(java.util.Objects::nonNull));
  }

  /**
   * The steps of the {@link StepGroups#WARM_UP} group ({@code point-query.warm} of {@code --steps
   * mytools-2023}): charted, and called like any step, but left out of every tally of calls, since
   * they warm the caches for the steps after them and answer no question of the study (issue 47).
   */
  public List<String> warmUpSteps() {
    return steps.stream().filter(s -> StepGroups.WARM_UP.equals(s.group())).map(StepTrend::step).toList();
  }

  private java.util.stream.Stream<StepTrend> measuredSteps() {
    return steps.stream().filter(s -> !StepGroups.WARM_UP.equals(s.group()));
  }

  /**
   * One step across versions.
   *
   * @param versions one figure per version of the report, in order
   * @param noisy whether, for some version, the 95 % interval of the relative is wider than the
   *     margin: its half-width on the log scale exceeds ln(1 + margin)
   * @param changePoints where the step's level shifts along the versions ({@link ChangePoints}), in
   *     order; empty when it does not
   */
  public record StepTrend(String step, String group, List<VersionFigure> versions, boolean noisy,
      List<ChangePoint> changePoints) {

    /** The figure at {@code version}. */
    public VersionFigure at(String version) {
      return versions.stream().filter(v -> v.version().equals(version)).findFirst().orElseThrow();
    }
  }

  /**
   * One step at one version.
   *
   * @param value the geometric mean of the per-run metric over the version's runs; null without
   *     one
   * @param valueCi95 95 % interval of {@code value} from the version's repeats (the one-sample t of
   *     their logs, {@link dev.benchlake.analysis.stats.GeometricMean#interval}); null with fewer
   *     than two runs with a positive figure
   * @param relative {@code value / value at the base}; in the paired analysis the paired θ (the
   *     geometric mean of the per-pair ratios) its call rests on; null without both
   * @param ci95 95 % interval of {@code relative} (log scale, Welch), with two runs or more on both
   *     sides; null otherwise
   * @param spread how much the version's repeats disagree: max/min − 1 over its runs (two or more);
   *     descriptive only
   * @param runIds the runs with a figure of this step
   * @param runValues each of those runs' figure, in the same order: what a series chart plots
   * @param verdict the call against the base ({@link dev.benchlake.analysis.stats.RatioDecisions});
   *     null at the base and where there is no relative; {@code inconclusive} without a test
   * @param decision the decision behind {@code verdict}; null without a test
   * @param versusPrevious the call against the previous version, in the same four words; null for
   *     the first version and where either version has no figure
   * @param confounders the table-maintenance check against the base; null at the base, where
   *     there is no figure, and when not checked
   * @param analysis against the base: {@code paired} or {@code unpaired}; null where not compared
   * @param pairs the pairs with the base's runs and the runs dropped, in the paired analysis; null otherwise
   */
  public record VersionFigure(String version, Double value, Range valueCi95, Double relative, Range ci95,
      Double spread, List<String> runIds, List<Double> runValues, Verdict verdict, Decision decision, Verdict versusPrevious, List<Confounder> confounders,
      String analysis, RunPairs pairs) {

    /** How many runs have a figure. */
    public int runs() {
      return runIds.size();
    }

    /** What more runs would do for an inconclusive call against the base; null otherwise. */
    public RunsAdvice runsNeeded() {
      return decision == null ? null : decision.runsNeeded();
    }
  }

  /**
   * A shift of one step's level, found by E-divisive means on the logs of its per-run figures.
   *
   * @param at the first version (or date) of the new level
   * @param before the level of the segment before: the geometric mean of its runs' figures
   * @param after the level of the segment from {@code at} to the next change point or the end
   * @param ratio {@code after / before}
   * @param p the permutation p-value of the split
   */
  public record ChangePoint(String at, double before, double after, double ratio, double p) {}

  /** A step group across versions: one figure per version, in order. */
  public record GroupTrend(String group, List<GroupFigure> versions) {
    public GroupFigure at(String version) {
      return versions.stream().filter(v -> v.version().equals(version)).findFirst().orElseThrow();
    }
  }

  /**
   * @param geomean the geometric mean over the group's steps of their (positive) relatives
   * @param ci95 95 % interval of the geometric mean, from its steps' own estimates in the analysis of
   *     the version's steps, clustered by run, or by round for a duet's runs (see {@link TrendAnalysis})
   * @param steps how many steps the geometric mean covers
   * @param verdict the call against the base, from that interval's effect, in the family of every
   *     group and version against the base (issue 47); null at the base, without a geometric mean,
   *     and for the warm-up, which is charted, not called; {@code inconclusive} without an interval
   */
  public record GroupFigure(String version, Double geomean, Range ci95, int steps, Verdict verdict) {}

  /**
   * A change of one step from a version to the next: a {@code faster} or {@code slower} call.
   *
   * @param change the test's estimate: {@code values[to] / values[from]}, or the paired θ where the
   *     runs pair (from the base, the relative against it)
   * @param p the unadjusted p
   * @param decision the call, in its family of consecutive-version tests
   * @param confounders the table-maintenance check between the two versions; null when not checked
   */
  public record Flag(String step, String from, String to, double change, Range ci95, double p, Decision decision,
      List<Confounder> confounders) {

    public Verdict verdict() {
      return decision.verdict();
    }

    /** {@code improvement} (faster) or {@code regression} (slower). */
    public String kind() {
      return decision.verdict() == Verdict.FASTER ? "improvement" : "regression";
    }

    public double pAdjusted() {
      return decision.pDifferenceAdjusted();
    }

    /**
     * Whether the whole (1 − α) interval lies beyond the margin (the change is at least the
     * margin); else its size is still uncertain.
     */
    public boolean beyondMargin() {
      return decision.beyondMargin();
    }
  }
}
