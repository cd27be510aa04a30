package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.LatencyBuckets;
import dev.benchlake.analysis.engine.RunCounts;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Side;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.CliffsDelta;
import dev.benchlake.analysis.stats.FisherExact;
import dev.benchlake.analysis.stats.HodgesLehmann;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.KolmogorovSmirnov;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.stats.MannWhitneyU;
import dev.benchlake.analysis.stats.Moments;
import dev.benchlake.analysis.stats.TwoStageBootstrap;
import dev.benchlake.analysis.stats.WelchT;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One step's figures before the steps are weighed together (corrections, verdicts): each side's
 * pooled statistics, the task-level tests, every run's figures, the errors across runs, the plot
 * and, per latency family, how uncertain a run's own figure is. Made by {@link #of} from a
 * {@link StepPlan} and the engine's answers to its query; latencies are in nanoseconds until
 * they become seconds here.
 *
 * @param tails per latency family ({@link Family#MEDIAN}, {@link Family#P99}) the runs' within-run
 *     noise and the two-stage bootstrap interval of θ
 */
record StepFigures(String step, Sides<GroupStatistics> groups, TaskTests tests, Sides<List<RunFigure>> runs,
    RunErrors errors, Plot plot, Map<Family, TailUncertainty> tails) {
  private static final double NS_PER_S = 1e9;
  /** Resamples of a run's own tasks for its within-run standard error. */
  private static final int WITHIN_RUN_RESAMPLES = 400;

  /**
   * @param withinRunSeLog root mean square over the runs of each run's standard error of its log
   *     figure; NaN when undefined
   * @param bootstrapCi95 two-stage bootstrap interval (runs, then tasks within runs) of θ
   */
  record TailUncertainty(double withinRunSeLog, Interval bootstrapCi95) {}

  /** A side's p99 and max before the outlier policy, in seconds (null without latencies). */
  record UnfilteredTail(Double p99S, Double maxS) {}

  StepFigures {
    tails = Map.copyOf(tails);
  }

  /**
   * @param removed per side, the successful tasks the outlier policy left out
   * @param unfiltered per side, the tail before the outlier policy; null with the policy {@code none}
   *     (then the tail is the filtered one)
   */
  static StepFigures of(StepPlan plan, StepAnswers answers, StepCounts counts, Sides<Long> removed,
      Sides<UnfilteredTail> unfiltered) {
    Sides<GroupStatistics> groups = Sides.by(side -> group(plan, side, answers, counts, removed.get(side),
        unfiltered == null ? null : unfiltered.get(side)));
    Sides<List<RunFigure>> runs = runs(plan, answers, counts);
    Map<Family, TailUncertainty> tails = new EnumMap<>(Family.class);
    tails.put(Family.MEDIAN, new TailUncertainty(withinRunSeLog(plan, 0.5), bootstrap(plan, 0.5)));
    tails.put(Family.P99, new TailUncertainty(withinRunSeLog(plan, 0.99), bootstrap(plan, 0.99)));
    return new StepFigures(plan.step(), groups, tests(plan, answers, groups), runs,
        RunErrorRates.compare(runs.map(r -> r.stream().map(RunFigure::errorRate).toList())), plot(plan, answers), tails);
  }

  /** The run's quantile {@code p} of its successful latencies, in nanoseconds. */
  private static double runQuantileNs(StepPlan plan, StepAnswers answers, int run, double p) {
    LinearQuantile.Position at = LinearQuantile.position(plan.layout().runN(run), p);
    return at.interpolate(answers.runValue(run, at.lowerRank()), answers.runValue(run, at.upperRank()));
  }

  private static double quantileNs(StepPlan plan, StepAnswers answers, Side side, double p) {
    LinearQuantile.Position at = LinearQuantile.position(plan.n().get(side), p);
    return at.interpolate(answers.groupValue(side.index(), at.lowerRank()),
        answers.groupValue(side.index(), at.upperRank()));
  }

  private static GroupStatistics group(StepPlan plan, Side side, StepAnswers answers, StepCounts counts, long removed,
      UnfilteredTail unfiltered) {
    long tasks = counts.tasks(side);
    long ok = counts.ok(side);
    long n = plan.n().get(side);
    Double[] q = new Double[StepPlan.SUMMARY.length];
    Double mean = null;
    Double stddev = null;
    if (n > 0) {
      for (int i = 0; i < StepPlan.SUMMARY.length; i++) {
        q[i] = quantileNs(plan, answers, side, StepPlan.SUMMARY[i]) / NS_PER_S;
      }
      Moments moments = plan.layout().moments(side.index());
      mean = moments.mean() / NS_PER_S;
      stddev = orNull(moments.sampleStddev() / NS_PER_S);
    }
    Long under = plan.request().thresholdNs() == null ? null : (n > 0 ? plan.layout().underThreshold(side.index()) : 0L);
    return new GroupStatistics(counts.runs(side), tasks, ok, tasks - ok, counts.errorsByCode(side), q[0], q[1], q[2],
        q[3], q[4], q[5], q[6], mean, stddev, under, removed, tasks == 0 ? null : (tasks - ok) / (double) tasks,
        unfiltered == null ? q[4] : unfiltered.p99S(), unfiltered == null ? q[6] : unfiltered.maxS());
  }

  private static TaskTests tests(StepPlan plan, StepAnswers answers, Sides<GroupStatistics> groups) {
    double fisher = FisherExact.twoSided(groups.baseline().errors(), groups.baseline().ok(),
        groups.candidate().errors(), groups.candidate().ok());
    if (!plan.bothHaveLatencies()) {
      return TaskTests.errorsOnly(fisher);
    }
    StepLayout layout = plan.layout();
    long nb = plan.n().baseline();
    long nc = plan.n().candidate();
    MannWhitneyU.Result u = nb + nc <= MannWhitneyU.EXACT_MAX_TOTAL
        ? MannWhitneyU.test(asDoubles(answers.extracted(Side.CANDIDATE.index())),
            asDoubles(answers.extracted(Side.BASELINE.index())))
        : MannWhitneyU.normal(nc, nb, layout.twoU() / 2.0, layout.tieTerm());
    WelchT.Result welch = WelchT.test(layout.moments(Side.CANDIDATE.index()), layout.moments(Side.BASELINE.index()));
    KolmogorovSmirnov.Result ks = KolmogorovSmirnov.fromScaledStatistic(answers.ksScaled(), nb, nc);
    Sides<long[]> hlValues = Sides.by(side -> plan.hodgesLehmannRanks() == null ? answers.extracted(side.index())
        : Arrays.stream(plan.hodgesLehmannRanks().get(side)).map(r -> answers.groupValue(side.index(), r)).toArray());
    HodgesLehmann.Result hl = HodgesLehmann.estimate(hlValues.candidate(), hlValues.baseline());
    double delta = CliffsDelta.fromU(u.u(), nc, nb);
    double baselineMedianNs = quantileNs(plan, answers, Side.BASELINE, 0.5);
    double ratio = quantileNs(plan, answers, Side.CANDIDATE, 0.5) / baselineMedianNs;
    Interval ratioCi = plan.bootstrap().interval(r -> answers.groupValue(Side.CANDIDATE.index(), r),
        r -> answers.groupValue(Side.BASELINE.index(), r));
    CompareRequest.Tuning tuning = plan.request().tuning();
    String hlMethod = plan.hodgesLehmannRanks() == null ? "exact: all " + nc * nb + " pairs"
        : String.format(Locale.ROOT, "random sample of %d tasks per group, seed %d", tuning.hodgesLehmannExactLimit(),
            tuning.seed());
    return new TaskTests(new TaskTests.MannWhitney(u.u(), u.p(), null, method(u.method().name())),
        new TaskTests.Welch(orNull(welch.t()), orNull(welch.df()), orNull(welch.p())),
        new TaskTests.Ks(ks.d(), ks.p(), method(ks.method().name())), fisher,
        new TaskTests.HodgesLehmann(hl.shift() / NS_PER_S, range(hl.ci95(), NS_PER_S), hlMethod),
        new TaskTests.Cliffs(delta, CliffsDelta.magnitude(delta).label()),
        new TaskTests.MedianRatio(baselineMedianNs == 0 ? null : ratio, range(ratioCi, 1),
            String.format(Locale.ROOT, "percentile bootstrap, %d resamples, seed %d", tuning.bootstrapResamples(),
                tuning.seed())));
  }

  /**
   * Every run with tasks in this step: its median, p99 (null without successful tasks), throughput
   * (null when undefined) and error rate.
   */
  private static Sides<List<RunFigure>> runs(StepPlan plan, StepAnswers answers, StepCounts counts) {
    return Sides.by(side -> {
      List<RunFigure> figures = new ArrayList<>();
      for (int run : plan.groups().runsOf(side)) {
        RunCounts runCounts = counts.run(run);
        if (runCounts == null || runCounts.tasks() == 0) {
          continue;
        }
        boolean latencies = hasLatencies(plan, run);
        figures.add(new RunFigure(plan.groups().runId(run),
            latencies ? runQuantileNs(plan, answers, run, 0.5) / NS_PER_S : null,
            latencies ? runQuantileNs(plan, answers, run, 0.99) / NS_PER_S : null, orNull(runCounts.throughputPerS()),
            runCounts.errors() / (double) runCounts.tasks()));
      }
      return List.copyOf(figures);
    });
  }

  private static boolean hasLatencies(StepPlan plan, int run) {
    return plan.layout() != null && plan.layout().runN(run) > 0;
  }

  /**
   * The root mean square over the runs of the standard error of each run's log quantile {@code p},
   * from a bootstrap of the run's own tasks (seeded per run, reproducible); NaN without any.
   */
  private static double withinRunSeLog(StepPlan plan, double p) {
    double squares = 0;
    int count = 0;
    for (int run = 0; run < plan.groups().runIds().size(); run++) {
      if (hasLatencies(plan, run)) {
        double se = TwoStageBootstrap.withinRunSeLog(histogram(plan, run), p, WITHIN_RUN_RESAMPLES,
            plan.request().tuning().seed() + run);
        if (Double.isFinite(se)) {
          squares += se * se;
          count++;
        }
      }
    }
    return count == 0 ? Double.NaN : Math.sqrt(squares / count);
  }

  /** The run's latency histogram on the engine's buckets, for resampling its tasks. */
  private static TwoStageBootstrap.Run histogram(StepPlan plan, int run) {
    long[][] histogram = plan.layout().runHistogram(run);
    long[] lower = Arrays.stream(histogram[0]).map(LatencyBuckets::lowerBound).toArray();
    long[] upper = Arrays.stream(histogram[0]).map(LatencyBuckets::upperBound).toArray();
    return new TwoStageBootstrap.Run(lower, upper, histogram[1]);
  }

  /**
   * The two-stage bootstrap's interval; none beside a paired result: it draws each side's runs on
   * their own, so it is an unpaired interval and would show the noise the pairing cancels (a duet's
   * per-round SD 0.008 paired against 0.23 apart) beside the paired one.
   */
  private static Interval bootstrap(StepPlan plan, double p) {
    if (plan.groups().pairing().paired()) {
      return Interval.UNBOUNDED;
    }
    Sides<TwoStageBootstrap.Run[]> runs = Sides.by(side -> Arrays.stream(plan.groups().runsOf(side))
        .filter(run -> hasLatencies(plan, run)).mapToObj(run -> histogram(plan, run))
        .toArray(TwoStageBootstrap.Run[]::new));
    if (runs.either(r -> r.length < 2)) {
      return Interval.UNBOUNDED;
    }
    return TwoStageBootstrap.interval(runs.baseline(), runs.candidate(), p, plan.request().tuning().bootstrapResamples(),
        plan.request().tuning().seed());
  }

  private static Plot plot(StepPlan plan, StepAnswers answers) {
    List<Double> probabilities = Arrays.stream(StepPlan.ECDF).boxed().toList();
    Sides<List<Double>> ecdf = Sides.by(side -> plan.n().get(side) == 0 ? List.<Double>of()
        : Arrays.stream(StepPlan.ECDF).mapToObj(p -> quantileNs(plan, answers, side, p) / NS_PER_S).toList());
    StepLayout layout = plan.layout();
    PlotHistogram histogram = layout == null ? PlotHistogram.of(new long[0], new long[0], new long[0], PlotHistogram.BINS)
        : PlotHistogram.of(layout.buckets(), layout.bucketCounts(Side.BASELINE.index()),
            layout.bucketCounts(Side.CANDIDATE.index()), PlotHistogram.BINS);
    return new Plot(probabilities, ecdf, Arrays.stream(histogram.edgesNs()).mapToObj(e -> e / NS_PER_S).toList(),
        Sides.of(Arrays.stream(histogram.baselineCounts()).boxed().toList(),
            Arrays.stream(histogram.candidateCounts()).boxed().toList()));
  }

  private static Range range(Interval interval, double divisor) {
    return interval.bounded() ? new Range(interval.low() / divisor, interval.high() / divisor) : Range.UNBOUNDED;
  }

  private static String method(String name) {
    return name.toLowerCase(Locale.ROOT);
  }

  private static Double orNull(double value) {
    return Double.isFinite(value) ? value : null;
  }

  private static double[] asDoubles(long[] values) {
    return Arrays.stream(values).asDoubleStream().toArray();
  }
}
