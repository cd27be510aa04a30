package dev.benchlake.analysis.compare;

import static dev.benchlake.analysis.compare.RunGroups.BASELINE;
import static dev.benchlake.analysis.compare.RunGroups.CANDIDATE;

import dev.benchlake.analysis.engine.LatencyBuckets;
import dev.benchlake.analysis.engine.RunCounts;
import dev.benchlake.analysis.engine.StepAnswers;
import dev.benchlake.analysis.engine.StepLayout;
import dev.benchlake.analysis.engine.StepQuery;
import dev.benchlake.analysis.compare.GroupStatistics;
import dev.benchlake.analysis.compare.Plot;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.compare.RunLevel;
import dev.benchlake.analysis.compare.Tests;
import dev.benchlake.analysis.stats.BootstrapMedianRatio;
import dev.benchlake.analysis.stats.CliffsDelta;
import dev.benchlake.analysis.stats.FisherExact;
import dev.benchlake.analysis.stats.HodgesLehmann;
import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.KolmogorovSmirnov;
import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.analysis.stats.MannWhitneyU;
import dev.benchlake.analysis.stats.Moments;
import dev.benchlake.analysis.stats.RandomRanks;
import dev.benchlake.analysis.stats.TwoStageBootstrap;
import dev.benchlake.analysis.stats.WelchT;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * One step's figures: first the ranks they need ({@link #query}), then, from the values at those
 * ranks and the engine's sufficient statistics, the groups, tests, per-run figures and plot
 * ({@link #draft}). Latencies are in nanoseconds until the report turns them into seconds.
 */
final class StepFigures {
  /** p0 (min) … p100 (max) of the report's groups. */
  static final double[] SUMMARY = {0, 0.5, 0.9, 0.95, 0.99, 0.999, 1};
  /** Where the plotted inverse ECDF is sampled: every percent, then the tail. */
  static final double[] ECDF = ecdfProbabilities();
  private static final double NS_PER_S = 1e9;
  /** Per-run quantiles: the median and the p99, the run-level latency figures. */
  private static final double[] PER_RUN = {0.5, 0.99};
  /** Resamples of a run's own tasks for its within-run standard error. */
  private static final int WITHIN_RUN_RESAMPLES = 400;

  private final String step;
  private final StepLayout layout;
  private final RunGroups groups;
  private final CompareRequest request;
  private final long[] n = new long[2];
  private BootstrapMedianRatio.Plan bootstrap;
  private long[][] hodgesLehmannRanks;

  StepFigures(String step, StepLayout layout, RunGroups groups, CompareRequest request) {
    this.step = step;
    this.layout = layout;
    this.groups = groups;
    this.request = request;
    for (int g = 0; g < 2; g++) {
      n[g] = layout == null ? 0 : layout.n(g);
    }
  }

  private static double[] ecdfProbabilities() {
    double[] p = new double[104];
    for (int i = 0; i < 100; i++) {
      p[i] = i / 100.0;
    }
    p[100] = 0.995;
    p[101] = 0.999;
    p[102] = 0.9999;
    p[103] = 1;
    return p;
  }

  StepQuery query() {
    StepQuery query = new StepQuery();
    for (int g = 0; g < 2; g++) {
      if (n[g] > 0) {
        for (double[] probabilities : List.of(SUMMARY, ECDF)) {
          for (double p : probabilities) {
            LinearQuantile.Position at = LinearQuantile.position(n[g], p);
            query.groupRanks(g, at.lowerRank(), at.upperRank());
          }
        }
      }
    }
    for (int run = 0; layout != null && run < groups.runIds().size(); run++) {
      if (layout.runN(run) > 0) {
        for (double p : PER_RUN) {
          LinearQuantile.Position at = LinearQuantile.position(layout.runN(run), p);
          query.runRanks(run, at.lowerRank(), at.upperRank());
        }
      }
    }
    if (n[BASELINE] > 0 && n[CANDIDATE] > 0) {
      query.ks();
      CompareRequest.Tuning tuning = request.tuning();
      bootstrap = BootstrapMedianRatio.plan(n[CANDIDATE], n[BASELINE], tuning.bootstrapResamples(), tuning.seed());
      query.groupRanks(CANDIDATE, bootstrap.distinctCandidateRanks());
      query.groupRanks(BASELINE, bootstrap.distinctBaselineRanks());
      int limit = tuning.hodgesLehmannExactLimit();
      if (n[BASELINE] <= limit && n[CANDIDATE] <= limit) {
        query.extract(BASELINE).extract(CANDIDATE);
      } else {
        hodgesLehmannRanks = new long[2][];
        for (int g = 0; g < 2; g++) {
          hodgesLehmannRanks[g] = RandomRanks.sample(n[g], limit, tuning.seed() + g);
          query.groupRanks(g, hodgesLehmannRanks[g]);
        }
      }
    }
    return query;
  }

  /**
   * @param unfiltered per group {p99, max} in seconds before the outlier policy; null with the
   *     policy {@code none} (then they are the filtered ones)
   */
  StepDraft draft(StepAnswers answers, StepCounts counts, long[] removed, Double[][] unfiltered) {
    GroupStatistics baseline = group(BASELINE, answers, counts, removed[BASELINE], unfiltered);
    GroupStatistics candidate = group(CANDIDATE, answers, counts, removed[CANDIDATE], unfiltered);
    PerRun perRun = perRun(answers, counts);
    return new StepDraft(step, baseline, candidate, tests(answers, baseline, candidate), perRun.level, plot(answers),
        perRun.seLogMedian, perRun.seLogP99, bootstrap(0.5), bootstrap(0.99));
  }

  private double runQuantileNs(StepAnswers answers, int run, double p) {
    LinearQuantile.Position at = LinearQuantile.position(layout.runN(run), p);
    return at.interpolate(answers.runValue(run, at.lowerRank()), answers.runValue(run, at.upperRank()));
  }

  /** The run's latency histogram on the engine's buckets, for resampling its tasks. */
  private TwoStageBootstrap.Run histogram(int run) {
    long[][] histogram = layout.runHistogram(run);
    long[] lower = Arrays.stream(histogram[0]).map(LatencyBuckets::lowerBound).toArray();
    long[] upper = Arrays.stream(histogram[0]).map(LatencyBuckets::upperBound).toArray();
    return new TwoStageBootstrap.Run(lower, upper, histogram[1]);
  }

  private Interval bootstrap(double p) {
    List<List<TwoStageBootstrap.Run>> runs = List.of(new ArrayList<>(), new ArrayList<>());
    for (int g = 0; g < 2 && layout != null; g++) {
      for (int run : groups.runsOf(g)) {
        if (layout.runN(run) > 0) {
          runs.get(g).add(histogram(run));
        }
      }
    }
    if (runs.get(BASELINE).size() < 2 || runs.get(CANDIDATE).size() < 2) {
      return Interval.UNBOUNDED;
    }
    return TwoStageBootstrap.interval(runs.get(BASELINE).toArray(TwoStageBootstrap.Run[]::new),
        runs.get(CANDIDATE).toArray(TwoStageBootstrap.Run[]::new), p, request.tuning().bootstrapResamples(),
        request.tuning().seed());
  }

  private double quantileNs(StepAnswers answers, int group, double p) {
    LinearQuantile.Position at = LinearQuantile.position(n[group], p);
    return at.interpolate(answers.groupValue(group, at.lowerRank()), answers.groupValue(group, at.upperRank()));
  }

  private GroupStatistics group(int g, StepAnswers answers, StepCounts counts, long removed, Double[][] unfiltered) {
    long tasks = counts.tasks(g);
    long ok = counts.ok(g);
    Double[] q = new Double[SUMMARY.length];
    Double mean = null;
    Double stddev = null;
    if (n[g] > 0) {
      for (int i = 0; i < SUMMARY.length; i++) {
        q[i] = quantileNs(answers, g, SUMMARY[i]) / NS_PER_S;
      }
      Moments moments = layout.moments(g);
      mean = moments.mean() / NS_PER_S;
      stddev = orNull(moments.sampleStddev() / NS_PER_S);
    }
    Long under = request.thresholdNs() == null ? null : (n[g] > 0 ? layout.underThreshold(g) : 0L);
    return new GroupStatistics(counts.runs(g), tasks, ok, tasks - ok, counts.errorsByCode(g), q[0], q[1], q[2], q[3],
        q[4], q[5], q[6], mean, stddev, under, removed, tasks == 0 ? null : (tasks - ok) / (double) tasks,
        unfiltered == null ? q[4] : unfiltered[g][0], unfiltered == null ? q[6] : unfiltered[g][1]);
  }

  private Tests tests(StepAnswers answers, GroupStatistics baseline, GroupStatistics candidate) {
    double fisher = FisherExact.twoSided(baseline.errors(), baseline.ok(), candidate.errors(), candidate.ok());
    if (n[BASELINE] == 0 || n[CANDIDATE] == 0) {
      return new Tests(null, null, null, null, null, null, null, fisher, null, null, null, null, null, null, null,
          null, null, null, null);
    }
    long nb = n[BASELINE];
    long nc = n[CANDIDATE];
    MannWhitneyU.Result u = nb + nc <= MannWhitneyU.EXACT_MAX_TOTAL
        ? MannWhitneyU.test(asDoubles(answers.extracted(CANDIDATE)), asDoubles(answers.extracted(BASELINE)))
        : MannWhitneyU.normal(nc, nb, layout.twoU() / 2.0, layout.tieTerm());
    WelchT.Result welch = WelchT.test(layout.moments(CANDIDATE), layout.moments(BASELINE));
    KolmogorovSmirnov.Result ks = KolmogorovSmirnov.fromScaledStatistic(answers.ksScaled(), nb, nc);
    long[][] hlValues = new long[2][];
    for (int g = 0; g < 2; g++) {
      if (hodgesLehmannRanks == null) {
        hlValues[g] = answers.extracted(g);
      } else {
        int group = g;
        hlValues[g] = Arrays.stream(hodgesLehmannRanks[g]).map(r -> answers.groupValue(group, r)).toArray();
      }
    }
    HodgesLehmann.Result hl = HodgesLehmann.estimate(hlValues[CANDIDATE], hlValues[BASELINE]);
    double delta = CliffsDelta.fromU(u.u(), nc, nb);
    double baselineMedianNs = quantileNs(answers, BASELINE, 0.5);
    double ratio = quantileNs(answers, CANDIDATE, 0.5) / baselineMedianNs;
    Interval ratioCi = bootstrap.interval(r -> answers.groupValue(CANDIDATE, r), r -> answers.groupValue(BASELINE, r));
    String hlMethod = hodgesLehmannRanks == null ? "exact: all " + nc * nb + " pairs"
        : String.format(Locale.ROOT, "random sample of %d tasks per group, seed %d",
            request.tuning().hodgesLehmannExactLimit(), request.tuning().seed());
    return new Tests(u.u(), u.p(), orNull(welch.t()), orNull(welch.df()), orNull(welch.p()), ks.d(), ks.p(), fisher,
        hl.shift() / NS_PER_S, range(hl.ci95(), NS_PER_S), delta, CliffsDelta.magnitude(delta).label(),
        baselineMedianNs == 0 ? null : ratio, range(ratioCi, 1), null, method(u.method().name()), method(ks.method().name()),
        hlMethod, String.format(Locale.ROOT, "percentile bootstrap, %d resamples, seed %d",
            request.tuning().bootstrapResamples(), request.tuning().seed()));
  }

  private record PerRun(RunLevel level, double seLogMedian, double seLogP99) {}

  /**
   * Every run with tasks in this step: its median, p99 (null without successful tasks), throughput
   * (null when undefined) and error rate; and the errors compared across runs.
   */
  private PerRun perRun(StepAnswers answers, StepCounts counts) {
    List<List<String>> ids = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> medians = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> p99s = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> throughputs = List.of(new ArrayList<>(), new ArrayList<>());
    List<List<Double>> errorRates = List.of(new ArrayList<>(), new ArrayList<>());
    double[] squares = new double[2];
    int[] seCount = new int[2];
    for (int g = 0; g < 2; g++) {
      for (int run : groups.runsOf(g)) {
        RunCounts runCounts = counts.run(run);
        if (runCounts == null || runCounts.tasks() == 0) {
          continue;
        }
        ids.get(g).add(groups.runId(run));
        boolean latencies = layout != null && layout.runN(run) > 0;
        medians.get(g).add(latencies ? runQuantileNs(answers, run, 0.5) / NS_PER_S : null);
        p99s.get(g).add(latencies ? runQuantileNs(answers, run, 0.99) / NS_PER_S : null);
        throughputs.get(g).add(orNull(runCounts.throughputPerS()));
        errorRates.get(g).add(runCounts.errors() / (double) runCounts.tasks());
        if (latencies) {
          // The within-run SE from a bootstrap of the run's own tasks (seeded per run, reproducible).
          TwoStageBootstrap.Run tasks = histogram(run);
          long seed = request.tuning().seed() + run;
          double[] se = {TwoStageBootstrap.withinRunSeLog(tasks, 0.5, WITHIN_RUN_RESAMPLES, seed),
              TwoStageBootstrap.withinRunSeLog(tasks, 0.99, WITHIN_RUN_RESAMPLES, seed)};
          for (int f = 0; f < 2; f++) {
            if (Double.isFinite(se[f])) {
              squares[f] += se[f] * se[f];
              seCount[f]++;
            }
          }
        }
      }
    }
    RunLevel level = new RunLevel(ids.get(BASELINE), ids.get(CANDIDATE), medians.get(BASELINE), medians.get(CANDIDATE),
        p99s.get(BASELINE), p99s.get(CANDIDATE), throughputs.get(BASELINE), throughputs.get(CANDIDATE),
        errorRates.get(BASELINE), errorRates.get(CANDIDATE), null, null, null,
        RunErrorRates.compare(errorRates.get(BASELINE), errorRates.get(CANDIDATE)), null);
    return new PerRun(level, seCount[0] == 0 ? Double.NaN : Math.sqrt(squares[0] / seCount[0]),
        seCount[1] == 0 ? Double.NaN : Math.sqrt(squares[1] / seCount[1]));
  }

  private Plot plot(StepAnswers answers) {
    List<Double> probabilities = Arrays.stream(ECDF).boxed().toList();
    List<List<Double>> ecdf = List.of(new ArrayList<>(), new ArrayList<>());
    for (int g = 0; g < 2; g++) {
      for (double p : ECDF) {
        if (n[g] > 0) {
          ecdf.get(g).add(quantileNs(answers, g, p) / NS_PER_S);
        }
      }
    }
    PlotHistogram histogram = layout == null ? PlotHistogram.of(new long[0], new long[0], new long[0], PlotHistogram.BINS)
        : PlotHistogram.of(layout.buckets(), layout.bucketCounts(BASELINE), layout.bucketCounts(CANDIDATE), PlotHistogram.BINS);
    return new Plot(probabilities, ecdf.get(BASELINE), ecdf.get(CANDIDATE),
        Arrays.stream(histogram.edgesNs()).mapToObj(e -> e / NS_PER_S).toList(),
        Arrays.stream(histogram.baselineCounts()).boxed().toList(),
        Arrays.stream(histogram.candidateCounts()).boxed().toList());
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
