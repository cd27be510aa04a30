package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.Direction;
import dev.benchlake.analysis.report.EffectMethod;
import dev.benchlake.analysis.report.FamilyDecisions;
import dev.benchlake.analysis.report.PairKeys;
import dev.benchlake.analysis.report.PairedByKey;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.RunPairs;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.report.Uncorrected;
import dev.benchlake.analysis.stats.EDivisive;
import dev.benchlake.analysis.stats.GeometricMean;
import dev.benchlake.analysis.stats.GroupLogRatio;
import dev.benchlake.analysis.stats.LogRatio;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.RoundClusteredLogRatio;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.GroupFigure;
import dev.benchlake.analysis.trend.TrendReport.GroupTrend;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The trend from per-run figures: pure, observations in, {@link TrendReport} out.
 *
 * <p><b>Per step and version</b>: {@code value} is the geometric mean of the runs' figures (0
 * when a run has 0); {@code relative = value/value_base}, undefined without a positive base
 * value; {@code ci95} is the {@link EffectMethod}'s 95 % interval (Welch's t on the logs of the
 * runs' figures, exponentiated) against the base's runs, with two or more runs on each side, all
 * positive; {@code spread} = max/min − 1 over the version's runs, descriptive. A step is
 * {@code noisy} when for some version its interval is wider than the margin: half of
 * {@code ln(high/low)} exceeds {@code ln(1 + margin)}, so its runs cannot tell a change of the
 * margin from none.
 *
 * <p><b>Calls</b>, in the four verdicts of {@link dev.benchlake.analysis.stats.RatioDecisions}
 * (the request's settings; throughputs: higher is better, latencies: lower is better): every
 * step's version against the base is one family ({@code verdict}, with what more runs would do
 * when inconclusive); every step's version against the previous version is another
 * ({@code versusPrevious}; the {@code faster} / {@code slower} ones are the {@code flags}), in the
 * analysis the two versions' runs choose: from the base, the very estimate against the base. A
 * relative without an interval (one run, or a figure of 0) is {@code inconclusive}, with the
 * reason among the messages.
 *
 * <p><b>Groups</b>: per version, {@code geomean} is the geometric mean of the positive relatives
 * of the group's steps. Its interval is {@link GroupLogRatio}'s: {@code ln θ_G} is the mean over
 * those steps of their own log changes against the base (each the very estimate its row shows, so
 * {@code exp(ln θ_G) = geomean}), each step with all of its runs, and the standard error is
 * clustered by run (CR2, Satterthwaite's df), so the steps' correlation through the runs they share
 * counts; paired ({@link PairedByKey}: a duet's rounds, {@code --pair-by}), clustered by round, so a
 * round's swing, shared by every step of the round, cancels in the group as it does in each step.
 * Where every run has every step this is the analysis of the runs' group figures
 * {@code g_r = exp(mean_s ln(x_{r,s}/value_base[s]))} (Welch's t; the paired analysis of their
 * per-pair ratios) exactly; a version study that drops decided steps from its later rounds keeps
 * every round in its groups' intervals (issue 47). A group whose step has no interval has none.
 *
 * <p><b>Table maintenance</b>: with a {@link TableHealthConfounders} rule, each figure against the
 * base and each flagged change is checked between the two versions' runs.
 */
public final class TrendAnalysis {
  private static final double CONFIDENCE = 0.95;

  private TrendAnalysis() {}

  /** One run's figure for one step. */
  public record Observation(String runId, String version, String step, double value) {}

  /** One step's figures of one version, by run id, in the order they came (valid ones only). */
  private record Figures(Map<String, Double> byRun) {
    static final Figures NONE = new Figures(Map.of());

    double[] values() {
      return byRun.values().stream().mapToDouble(Double::doubleValue).toArray();
    }

    boolean allPositive() {
      return byRun.values().stream().allMatch(v -> v > 0);
    }

    /** Two runs or more, all positive: what an interval needs. */
    boolean estimable() {
      return byRun.size() >= 2 && allPositive();
    }
  }

  /** What one step measured, before the steps are weighed together. */
  private record Series(String step, String group, Map<String, Figures> byVersion, Map<String, Double> values,
      Map<String, Double> relative, Map<String, RatioEffect> vsBase, Map<String, RunPairs> pairs,
      Map<String, Double> spread, boolean noisy, List<ChangePoint> changePoints) {

    Figures at(String version) {
      return byVersion.getOrDefault(version, Figures.NONE);
    }

    /** The runs of {@code version} with a figure of this step: what its table health is checked over. */
    List<String> runIds(String version) {
      return List.copyOf(at(version).byRun().keySet());
    }
  }

  /** One comparison of a family: a step, the version compared, and its effect. */
  private record Test(int step, String version, RatioEffect effect) {}

  /** {@link #analyse(List, Map, TrendRequest, List, TableHealthConfounders)} without the table-maintenance check. */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs, TrendRequest request,
      List<String> notes) {
    return analyse(observations, runs, request, notes, null);
  }

  /** {@link #analyse(List, Map, TrendRequest, List, TableHealthConfounders, Map)} of runs without pairing labels. */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs, TrendRequest request,
      List<String> notes, TableHealthConfounders confounders) {
    return analyse(observations, runs, request, notes, confounders, Map.of());
  }

  /**
   * How each version's runs pair with the base's ({@link Pairing#choose}: a duet's rounds,
   * {@code --pair-by}, or none), by version; the base has none.
   *
   * @param request with its base ({@link #withBase})
   * @param labelsOf each run's labels that a pairing reads ({@link Pairing#labelsRead}); a run absent: none
   * @throws dev.benchlake.core.cli.BadInputException naming a run without a pairing label, or two runs of
   *     one version with one key
   */
  public static Map<String, Pairing> pairings(TrendRequest request, Map<String, List<String>> runs,
      Map<String, Map<String, String>> labelsOf) {
    Map<String, Pairing> pairings = new TreeMap<>();
    Map<String, Map<String, String>> base = labels(runs.getOrDefault(request.base(), List.of()), labelsOf);
    runs.forEach((version, ids) -> {
      if (!version.equals(request.base())) {
        pairings.put(version, Pairing.choose(Sides.of(base, labels(ids, labelsOf)), request.pairBy()).leastSquares());
      }
    });
    return pairings;
  }

  private static Map<String, Map<String, String>> labels(List<String> runIds, Map<String, Map<String, String>> labelsOf) {
    Map<String, Map<String, String>> labels = new LinkedHashMap<>();
    runIds.forEach(id -> labels.put(id, labelsOf.getOrDefault(id, Map.of())));
    return labels;
  }

  /**
   * The trend's design: the one every version's pairing names ({@code unpaired}, {@code duet},
   * {@code paired-by:round}), or {@code mixed} when versions differ (each version's
   * {@code analysis} says which).
   */
  static String design(Map<String, Pairing> pairings) {
    List<String> designs = pairings.values().stream().map(Pairing::design).distinct().toList();
    return designs.isEmpty() ? Pairing.UNPAIRED_DESIGN : designs.size() == 1 ? designs.get(0) : "mixed";
  }

  /**
   * The request with its base: {@code --base}, which must be one of the versions; without it the
   * first version in order (the oldest date, for {@code --by date}).
   *
   * @param versions in their order ({@link SeriesOrder})
   * @throws BadInputException when the base is not one of the versions
   */
  static TrendRequest withBase(TrendRequest request, List<String> versions) {
    TrendRequest based = request.base() == null && !versions.isEmpty() ? request.withBase(versions.get(0)) : request;
    if (!versions.contains(based.base())) {
      throw new BadInputException("--base " + based.base() + " is not a value of " + based.by()
          + " among the selected runs (values: " + String.join(", ", versions) + ")");
    }
    return based;
  }

  /**
   * {@link #analyse(List, Map, Map, TrendRequest, List, TableHealthConfounders, Map)} of runs without
   * pairing labels.
   */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs,
      Map<String, String> orderKeys, TrendRequest request, List<String> notes, TableHealthConfounders confounders) {
    return analyse(observations, runs, orderKeys, request, notes, confounders, Map.of());
  }

  /**
   * {@link #analyse(List, Map, Map, TrendRequest, List, TableHealthConfounders, Map)} of versions that need
   * no {@code --order-by} key.
   */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs, TrendRequest request,
      List<String> notes, TableHealthConfounders confounders, Map<String, Map<String, String>> labelsOf) {
    return analyse(observations, runs, Map.of(), request, notes, confounders, labelsOf);
  }

  /**
   * @param runs the selected runs of each version (versions without any observation included)
   * @param orderKeys each version's {@code --order-by} key ({@link SeriesOrder}); empty without one
   * @param notes messages already known (from reading the sources)
   * @param confounders the table-maintenance check; null: not checked
   * @param labelsOf each run's labels that a pairing reads ({@link #pairings})
   * @throws BadInputException when the base is not one of the versions, the versions have no order, or
   *     the runs do not pair
   */
  public static TrendReport analyse(List<Observation> observations, Map<String, List<String>> runs,
      Map<String, String> orderKeys, TrendRequest request, List<String> notes, TableHealthConfounders confounders,
      Map<String, Map<String, String>> labelsOf) {
    List<String> versions = SeriesOrder.sort(request, runs.keySet(), orderKeys, List.of());
    request = withBase(request, versions);
    Map<String, Pairing> pairings = pairings(request, runs, labelsOf);
    List<String> messages = new ArrayList<>(notes);
    // Names (configurations, profiles) are each compared against the base; a series needs an order.
    boolean ordered = !SeriesOrder.names(request.base(), request.orderBy(), versions);
    if (!ordered) {
      messages.add("The values of " + request.by() + " are names with no order of their own: each is compared against "
          + request.base() + "; no change points and no comparisons between consecutive values (--order-by LABEL"
          + " gives them an order).");
    }
    for (String version : versions) {
      if (runs.get(version).size() == 1) {
        messages.add(request.by() + " " + version + " has one run: its relatives have no interval, so its calls are"
            + " inconclusive.");
      }
    }
    Map<String, Map<String, Map<String, Double>>> byStep = new TreeMap<>();
    for (Observation o : observations) {
      if (!Double.isFinite(o.value()) || o.value() < 0) {
        messages.add("run " + o.runId() + ", step " + o.step() + ": " + request.metric().name() + " = " + o.value()
            + " is not a valid figure; left out.");
        continue;
      }
      byStep.computeIfAbsent(o.step(), s -> new TreeMap<>()).computeIfAbsent(o.version(), v -> new LinkedHashMap<>())
          .put(o.runId(), o.value());
    }
    List<Series> series = new ArrayList<>();
    for (Map.Entry<String, Map<String, Map<String, Double>>> e : byStep.entrySet()) {
      series.add(series(e.getKey(), e.getValue(), versions, request, pairings, ordered, messages));
    }
    series.sort(Comparator.comparing(Series::group, StepGroups.order()).thenComparing(Series::step));
    singleRunSteps(series, versions, runs, request, messages);
    Map<String, List<String>> runsOf = runsInOrder(runs, versions);
    Direction direction = request.metric().direction();

    List<Test> againstBase = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      for (String v : versions) {
        RatioEffect effect = series.get(i).vsBase().get(v);
        if (effect != null) {
          againstBase.add(new Test(i, v, effect));
        }
      }
    }
    Map<String, Decision> baseDecisions = decide(againstBase, request, direction);
    Map<String, Pairing> previousPairings = ordered ? previousPairings(request, versions, runs, pairings, labelsOf)
        : Map.of();
    List<Test> againstPrevious = new ArrayList<>();
    for (int i = 0; ordered && i < series.size(); i++) {
      for (int v = 1; v < versions.size(); v++) {
        RatioEffect effect = againstPrevious(series.get(i), versions.get(v - 1), versions.get(v), request,
            previousPairings.get(versions.get(v)));
        if (effect != null) {
          againstPrevious.add(new Test(i, versions.get(v), effect));
        }
      }
    }
    Map<String, Decision> previousDecisions = decide(againstPrevious, request, direction);

    List<StepTrend> steps = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      steps.add(stepTrend(i, series.get(i), versions, request, baseDecisions, previousDecisions, confounders, pairings));
    }
    List<Flag> flags = new ArrayList<>();
    for (Test test : againstPrevious) {
      Decision d = previousDecisions.get(key(test.step(), test.version()));
      if (d.verdict() == Verdict.FASTER || d.verdict() == Verdict.SLOWER) {
        String step = series.get(test.step()).step();
        String from = versions.get(versions.indexOf(test.version()) - 1);
        Series s = series.get(test.step());
        flags.add(new Flag(step, from, test.version(), test.effect().ratio(),
            Range.of(test.effect().interval(CONFIDENCE)), test.effect().pDifference(), d,
            confounders == null ? null : confounders.between(step, Sides.of(from, test.version()),
                Sides.of(s.runIds(from), s.runIds(test.version())))));
      }
    }
    List<GroupTrend> groups = groups(steps, series, versions, request, pairings, messages, direction);
    int vsBase = Uncorrected.tests(baseDecisions.values());
    int vsPrevious = Uncorrected.tests(previousDecisions.values());
    List<String> warnings = Uncorrected.warnings(request.settings(), vsBase + vsPrevious,
        "calls (" + vsBase + " against " + request.base() + ", " + vsPrevious + " between consecutive versions)");
    return new TrendReport(request.by(), request.base(), request.metric().name(), request.metric().unit(), direction,
        request.where() == null || request.where().isBlank() ? null : request.where(), versions, steps, groups, flags,
        runsOf, request.settings(), request.changePointAlpha(),
        StepMessages.fold(messages, series.stream().map(Series::step).toList()), warnings,
        TrendMethods.describe(request, confounders, pairings), design(pairings), request.orderBy(),
        versions.stream().allMatch(SeriesOrder::isDate) ? SeriesOrder.missingDays(versions) : null, null, null);
  }

  /** One step's per-version figures, relatives, intervals and change points. */
  private static Series series(String step, Map<String, Map<String, Double>> observed, List<String> versions,
      TrendRequest request, Map<String, Pairing> pairings, boolean ordered, List<String> messages) {
    Map<String, Figures> byVersion = new LinkedHashMap<>();
    observed.forEach((v, byRun) -> byVersion.put(v, new Figures(byRun)));
    Map<String, Double> values = new LinkedHashMap<>();
    Map<String, Double> spread = new LinkedHashMap<>();
    for (String v : versions) {
      Figures f = byVersion.getOrDefault(v, Figures.NONE);
      double[] figures = f.values();
      values.put(v, figures.length == 0 ? null : f.allPositive() ? GeometricMean.of(figures) : 0.0);
      if (figures.length > 0 && !f.allPositive()) {
        messages.add("step " + step + ", " + request.by() + " " + v + ": a run has " + request.metric().name()
            + " = 0, so its geometric mean is 0 and it has no interval.");
      }
      spread.put(v, figures.length >= 2 && f.allPositive() ? max(figures) / min(figures) - 1 : null);
    }
    Double baseValue = values.get(request.base());
    if (baseValue == null) {
      messages.add("step " + step + " has no value at " + request.by() + " " + request.base() + ": no relatives.");
    } else if (baseValue == 0) {
      messages.add("step " + step + " is 0 at " + request.by() + " " + request.base() + ": no relatives.");
    }
    Figures base = byVersion.getOrDefault(request.base(), Figures.NONE);
    Map<String, Double> relative = new LinkedHashMap<>();
    Map<String, RatioEffect> vsBase = new HashMap<>();
    Map<String, RunPairs> pairs = new HashMap<>();
    boolean noisy = false;
    for (String v : versions) {
      Double value = values.get(v);
      Double ratio = baseValue == null || baseValue == 0 || value == null ? null : value / baseValue;
      relative.put(v, ratio);
      Figures at = byVersion.getOrDefault(v, Figures.NONE);
      EffectMethod method = v.equals(request.base()) ? EffectMethod.UNPAIRED : pairings.get(v).method();
      Sides<Map<String, Double>> figures = Sides.of(base.byRun(), at.byRun());
      if (method instanceof PairedByKey paired && !v.equals(request.base())) {
        RunPairs matched = paired.pairs(figures);
        pairs.put(v, matched);
        if (ratio != null && at.estimable() && base.estimable() && matched.size() < 2) {
          messages.add("step " + step + ", " + request.by() + " " + v + ": " + matched.size() + " complete pair"
              + (matched.size() == 1 ? "" : "s") + " with " + request.base() + ", and the paired analysis needs at"
              + " least 2: no interval, inconclusive.");
          continue;
        }
      }
      if (ratio != null && !v.equals(request.base()) && at.estimable() && base.estimable()) {
        RatioEffect effect = method.estimate(figures);
        vsBase.put(v, effect);
        if (pairs.containsKey(v)) {
          // The number shown beside the call is the one it rests on: the paired θ.
          relative.put(v, effect.ratio());
        }
        Range interval = Range.of(effect.interval(CONFIDENCE));
        // Wider than the margin: these runs cannot tell a change of the margin from none.
        noisy |= Math.log(interval.high() / interval.low()) / 2 > Math.log1p(request.settings().margin());
      }
    }
    Map<String, Map<String, Double>> runFigures = new TreeMap<>();
    byVersion.forEach((v, f) -> runFigures.put(v, f.byRun()));
    EDivisive search = EDivisive.at(request.changePointAlpha());
    // A paired trend's change points are on its figures with each pair's moment taken out (issue 47).
    List<ChangePoint> changePoints = !ordered ? List.of() : ChangePoints.onPairedFigures(design(pairings))
        ? ChangePoints.ofPaired(step, runFigures, pairs, versions, request.base(), request.by(), search, messages)
        : ChangePoints.of(step, runFigures, versions, search, messages);
    return new Series(step, request.groups().groupOf(step), byVersion, values, relative, vsBase, pairs, spread, noisy,
        changePoints);
  }

  /**
   * How each version's runs pair with the previous version's: against the base, the pairing against
   * the base; else the one the two versions' labels choose ({@link Pairing#choose}), so a duet or
   * {@code --pair-by} keeps its pairs between neighbours too. The first version has none.
   */
  private static Map<String, Pairing> previousPairings(TrendRequest request, List<String> versions,
      Map<String, List<String>> runs, Map<String, Pairing> pairings, Map<String, Map<String, String>> labelsOf) {
    Map<String, Pairing> previous = new HashMap<>();
    for (int v = 1; v < versions.size(); v++) {
      String from = versions.get(v - 1);
      String to = versions.get(v);
      previous.put(to, from.equals(request.base()) ? pairings.get(to) : Pairing.choose(Sides.of(
          labels(runs.get(from), labelsOf), labels(runs.get(to), labelsOf)), request.pairBy()).leastSquares());
    }
    return previous;
  }

  /**
   * A step's change from version {@code from} to {@code to}, in the analysis their runs choose, or
   * null without an interval (fewer than two runs, or two complete pairs, on a side; a figure of
   * 0). From the base it is the very estimate against the base: the same comparison gives the same
   * figures and, in a family of the same tests, the same calls.
   */
  private static RatioEffect againstPrevious(Series s, String from, String to, TrendRequest request, Pairing pairing) {
    if (from.equals(request.base())) {
      return s.vsBase().get(to);
    }
    RunPairs fromPairs = s.pairs().get(from);
    RunPairs toPairs = s.pairs().get(to);
    if (fromPairs != null && toPairs != null && pairedPerRound(fromPairs) && pairedPerRound(toPairs)) {
      return throughTheBase(fromPairs, toPairs);
    }
    Sides<Figures> sides = Sides.of(s.at(from), s.at(to));
    if (!sides.both(Figures::estimable)) {
      return null;
    }
    Sides<Map<String, Double>> figures = sides.map(Figures::byRun);
    if (pairing.method() instanceof PairedByKey paired && paired.pairs(figures).size() < 2) {
      return null;
    }
    return pairing.method().estimate(figures);
  }

  /**
   * Whether these pairs with the base are a version study's duet pairs: several pairs a round, told
   * apart by their {@code pair} label ({@code 11v14}, {@code 11v17}), so that two versions other than
   * the base never ran at the same moment and share no pair key.
   */
  private static boolean pairedPerRound(RunPairs pairs) {
    return !pairs.pairs().isEmpty() && pairs.pairs().stream().allMatch(p -> PairKeys.part(p.key(),
        Pairing.PAIR_LABEL) != null && PairKeys.part(p.key(), Pairing.ROUND_LABEL) != null);
  }

  /**
   * Two versions measured each against the base in the same rounds (a duet of several majors: no
   * pair between them ran), compared through those pairs: per round, the ratio of {@code to}'s pair
   * ratio to {@code from}'s, so each pair's own moment cancels (what one pair shares) and the set
   * term too (a round's pairs share its CPU sets), the base's run-to-run noise added; the one-sample
   * t of their logs, as {@link PairedByKey#leastSquares}. Null with fewer than two rounds of both.
   */
  private static RatioEffect throughTheBase(RunPairs from, RunPairs to) {
    Map<String, Double> fromByRound = perRound(from, "from ");
    Map<String, Double> toByRound = perRound(to, "to ");
    Map<String, String> keys = new HashMap<>();
    fromByRound.keySet().forEach(id -> keys.put(id, id.substring("from ".length())));
    toByRound.keySet().forEach(id -> keys.put(id, id.substring("to ".length())));
    PairedByKey byRound = new PairedByKey(keys).leastSquares();
    Sides<Map<String, Double>> ratios = Sides.of(fromByRound, toByRound);
    return byRound.pairs(ratios).size() < 2 ? null : byRound.estimate(ratios);
  }

  /** Each pair's ratio (the version's figure over its base run's), by {@code prefix} and its round's key part. */
  private static Map<String, Double> perRound(RunPairs pairs, String prefix) {
    Map<String, Double> byRound = new LinkedHashMap<>();
    pairs.pairs().stream().filter(p -> p.figures().both(x -> x > 0)).forEach(p -> byRound.put(prefix
        + PairKeys.part(p.key(), Pairing.ROUND_LABEL), p.figures().candidate() / p.figures().baseline()));
    return byRound;
  }

  /** The step's record of each version, with its calls and its table-maintenance check. */
  private static StepTrend stepTrend(int index, Series s, List<String> versions, TrendRequest request,
      Map<String, Decision> baseDecisions, Map<String, Decision> previousDecisions,
      TableHealthConfounders confounders, Map<String, Pairing> pairings) {
    List<VersionFigure> figures = new ArrayList<>();
    String base = request.base();
    for (int v = 0; v < versions.size(); v++) {
      String version = versions.get(v);
      boolean compared = !version.equals(base) && s.relative().get(version) != null;
      Decision decision = baseDecisions.get(key(index, version));
      // A relative without a test (one run, a figure of 0) cannot be decided.
      Verdict verdict = !compared ? null : decision == null ? Verdict.INCONCLUSIVE : decision.verdict();
      Verdict previous = null;
      // Names have no previous value: they are compared against the base only.
      if (v > 0 && s.values().get(versions.get(v - 1)) != null && s.values().get(version) != null
          && !SeriesOrder.names(request.base(), request.orderBy(), versions)) {
        // Both versions have a figure but no test: as undecidable as against the base.
        Decision d = previousDecisions.get(key(index, version));
        previous = d == null ? Verdict.INCONCLUSIVE : d.verdict();
      }
      RatioEffect effect = s.vsBase().get(version);
      boolean checked = confounders != null && !version.equals(base) && s.values().get(version) != null
          && s.values().get(base) != null;
      List<Confounder> health = checked ? confounders.between(s.step(), Sides.of(base, version),
          Sides.of(s.runIds(base), s.runIds(version))) : null;
      Figures repeats = s.at(version);
      Range valueCi95 = repeats.estimable()
          ? Range.of(GeometricMean.interval(repeats.values(), CONFIDENCE)) : null;
      figures.add(new VersionFigure(version, s.values().get(version), valueCi95, s.relative().get(version),
          effect == null ? null : Range.of(effect.interval(CONFIDENCE)), s.spread().get(version), s.runIds(version),
          List.copyOf(repeats.byRun().values()), verdict, decision, previous, health, compared ? pairings.get(version).analysis() : null,
          s.pairs().get(version)));
    }
    return new StepTrend(s.step(), s.group(), List.copyOf(figures), s.noisy(), s.changePoints());
  }

  /** A family's decisions by {@link #key}. */
  private static Map<String, Decision> decide(List<Test> family, TrendRequest request, Direction direction) {
    List<Decision> decisions = FamilyDecisions.decide(family.stream().map(Test::effect).toList(), request.settings(),
        direction);
    Map<String, Decision> byKey = new HashMap<>();
    for (int t = 0; t < family.size(); t++) {
      byKey.put(key(family.get(t).step(), family.get(t).version()), decisions.get(t));
    }
    return byKey;
  }

  private static String key(int step, String version) {
    return step + "\u0000" + version;
  }

  /** Steps measured by one run of a version that has several: no interval and no test there. */
  private static void singleRunSteps(List<Series> series, List<String> versions, Map<String, List<String>> runs,
      TrendRequest request, List<String> messages) {
    for (String v : versions) {
      if (runs.get(v).size() > 1) {
        List<String> single = series.stream().filter(s -> s.at(v).byRun().size() == 1).map(Series::step).toList();
        if (!single.isEmpty()) {
          messages.add(request.by() + " " + v + ": " + String.join(", ", single)
              + (single.size() == 1 ? " has one run" : " have one run each")
              + ": no interval there, so its calls are inconclusive.");
        }
      }
    }
  }

  private static List<GroupTrend> groups(List<StepTrend> steps, List<Series> series, List<String> versions,
      TrendRequest request, Map<String, Pairing> pairings, List<String> messages, Direction direction) {
    Map<String, Series> seriesOf = new HashMap<>();
    series.forEach(s -> seriesOf.put(s.step(), s));
    Map<String, List<StepTrend>> byGroup = new TreeMap<>(StepGroups.order());
    steps.forEach(s -> byGroup.computeIfAbsent(s.group(), g -> new ArrayList<>()).add(s));
    List<GroupEffect> all = new ArrayList<>();
    Map<String, List<String>> groupsByUneven = new LinkedHashMap<>();
    byGroup.forEach((group, members) -> {
      Map<String, String> uneven = new LinkedHashMap<>();
      for (String v : versions) {
        List<StepTrend> covered = members.stream().filter(s -> s.at(v).relative() != null && s.at(v).relative() > 0)
            .toList();
        double[] relatives = covered.stream().mapToDouble(s -> s.at(v).relative()).toArray();
        members.stream().filter(s -> Double.valueOf(0).equals(s.at(v).relative())).forEach(s -> messages.add("step "
            + s.step() + " is 0 at " + v + ": left out of the geometric mean of " + group + "."));
        RatioEffect effect = relatives.length == 0 || v.equals(request.base()) ? null
            : groupEffect(group, covered, seriesOf, v, request, pairings.get(v).method(), messages, uneven);
        all.add(new GroupEffect(group, v, relatives.length == 0 ? null : GeometricMean.of(relatives), effect,
            relatives.length));
      }
      if (!uneven.isEmpty()) {
        groupsByUneven.computeIfAbsent(byVersion(uneven, request), k -> new ArrayList<>()).add(group);
      }
    });
    // One note for the groups whose steps have the same uneven runs, not one per group and version (issue 47: a
    // study whose decided steps drop out of its later rounds would repeat it for every group at every major).
    groupsByUneven.forEach((clusters, groups) -> messages.add(String.join("; ", groups) + ": steps measured"
        + " by different runs: each step's ratio is from its own runs, the group's interval from all of them, clustered"
        + " by run (by round where paired), none left out: " + clusters + "."));
    // The groups are the study's answer (issue 47), so they are called like the steps, as one family
    // of their own (every group and version against the base) at the same level and correction. The
    // warm-up is charted, not called: it measures no question of the study (StepGroups.WARM_UP).
    List<Decision> decisions = FamilyDecisions.decide(all.stream()
        .map(g -> StepGroups.WARM_UP.equals(g.group()) ? null : g.effect()).toList(), request.settings(), direction);
    Map<String, List<GroupFigure>> figures = new LinkedHashMap<>();
    for (int i = 0; i < all.size(); i++) {
      GroupEffect g = all.get(i);
      boolean called = g.geomean() != null && !g.version().equals(request.base())
          && !StepGroups.WARM_UP.equals(g.group());
      // A group without an interval (a step without one) cannot be decided.
      Verdict verdict = !called ? null : decisions.get(i) == null ? Verdict.INCONCLUSIVE : decisions.get(i).verdict();
      figures.computeIfAbsent(g.group(), k -> new ArrayList<>()).add(new GroupFigure(g.version(), g.geomean(),
          g.effect() == null ? null : Range.of(g.effect().interval(CONFIDENCE)), g.steps(), verdict));
    }
    List<GroupTrend> groups = new ArrayList<>();
    figures.forEach((group, byVersion) -> groups.add(new GroupTrend(group, List.copyOf(byVersion))));
    return groups;
  }

  /** A group at a version before the groups are called: its geometric mean, its effect (null: no interval). */
  private record GroupEffect(String group, String version, Double geomean, RatioEffect effect, int steps) {}

  /**
   * The effect of a group's geometric mean at {@code version} (its interval, its call): the mean of its
   * steps' own log changes against the base, each the very estimate its row shows, with a standard error
   * clustered by round ({@code method} paired: a duet's rounds, {@code --pair-by}) or by run
   * ({@link GroupLogRatio}), so every round that measured any of the steps counts and the swing a round
   * gives all its steps cancels as in each step (issue 47); or null, with the reason among the messages,
   * when a step has no interval of its own.
   *
   * @param uneven where the steps were not all measured by the same runs: by version, how many clusters
   *     the interval rests on
   */
  private static RatioEffect groupEffect(String group, List<StepTrend> covered, Map<String, Series> seriesOf,
      String version, TrendRequest request, EffectMethod method, List<String> messages, Map<String, String> uneven) {
    List<String> without = covered.stream().filter(s -> seriesOf.get(s.step()).vsBase().get(version) == null)
        .map(StepTrend::step).toList();
    if (!without.isEmpty()) {
      // With fewer than two runs in all, the one-run message has said it already.
      if (runsOf(covered, version) > 1 && runsOf(covered, request.base()) > 1) {
        messages.add(group + " at " + request.by() + " " + version + ": no interval, as " + String.join(", ", without)
            + (without.size() == 1 ? " has" : " have") + " none against " + request.base() + ".");
      }
      return null;
    }
    List<Integer> perStep = new ArrayList<>();
    if (method instanceof PairedByKey) {
      List<GroupLogRatio.PairedStep> pairs = new ArrayList<>();
      for (StepTrend s : covered) {
        RunPairs matched = seriesOf.get(s.step()).pairs().get(version);
        Sides<double[]> figures = matched.figures();
        pairs.add(new GroupLogRatio.PairedStep(matched.pairs().stream().map(RunPairs.Pair::key).toList(),
            PairedLogRatio.logRatios(figures.baseline(), figures.candidate()), matched.baselineOnSetOne()));
        perStep.add(matched.size());
      }
      RoundClusteredLogRatio effect = GroupLogRatio.paired(pairs);
      noteUneven(uneven, version, effect.rounds(), perStep, "rounds");
      return effect;
    }
    List<GroupLogRatio.UnpairedStep> runs = new ArrayList<>();
    for (StepTrend s : covered) {
      Series series = seriesOf.get(s.step());
      runs.add(new GroupLogRatio.UnpairedStep(logs(series.at(request.base())), logs(series.at(version))));
      perStep.add(series.at(request.base()).byRun().size() + series.at(version).byRun().size());
    }
    LogRatio effect = GroupLogRatio.unpaired(runs);
    noteUneven(uneven, version, effect.nBaseline() + effect.nCandidate(), perStep, "runs");
    return effect;
  }

  /** Records {@code 21 rounds, 10-21 a step} ({@code 12 runs, 6 a step}) when some step lacks some of the clusters the group's interval rests on. */
  private static void noteUneven(Map<String, String> uneven, String version, int clusters, List<Integer> perStep,
      String unit) {
    int fewest = perStep.stream().mapToInt(Integer::intValue).min().orElseThrow();
    int most = perStep.stream().mapToInt(Integer::intValue).max().orElseThrow();
    if (fewest < clusters) {
      uneven.put(version, clusters + " " + unit + ", " + (fewest == most ? "" : fewest + "-") + most + " a step");
    }
  }

  /** The runs of {@code version} that measured any of these steps. */
  private static long runsOf(List<StepTrend> steps, String version) {
    return steps.stream().flatMap(s -> s.at(version).runIds().stream()).distinct().count();
  }

  private static Map<String, Double> logs(Figures figures) {
    Map<String, Double> logs = new LinkedHashMap<>();
    figures.byRun().forEach((run, x) -> logs.put(run, Math.log(x)));
    return logs;
  }

  /**
   * {@code db_major 12: 21 rounds, 10-21 a step; 13: …}, or where every version has the same,
   * {@code 21 rounds, 10-21 a step at each of db_major 12, 13, 14}.
   */
  private static String byVersion(Map<String, String> figures, TrendRequest request) {
    if (figures.size() > 1 && figures.values().stream().distinct().count() == 1) {
      return figures.values().iterator().next() + " at each of " + request.by() + " "
          + String.join(", ", figures.keySet());
    }
    List<String> each = new ArrayList<>();
    figures.forEach((version, text) -> each.add(version + ": " + text));
    return request.by() + " " + String.join("; ", each);
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

  private static double max(double[] values) {
    return java.util.Arrays.stream(values).max().orElseThrow();
  }

  private static double min(double[] values) {
    return java.util.Arrays.stream(values).min().orElseThrow();
  }
}
