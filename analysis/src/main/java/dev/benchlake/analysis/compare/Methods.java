package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.stats.KolmogorovSmirnov;
import dev.benchlake.analysis.stats.MannWhitneyU;
import java.util.List;
import java.util.Locale;

/** The report's statement of method: what each figure is, one line each. */
final class Methods {
  private Methods() {}

  static List<String> describe(CompareRequest request) {
    CompareRequest.Tuning tuning = request.tuning();
    return List.of(
        "Latency: from the intended start to the end of each successful task, warm-up tasks excluded; failed tasks"
            + " are counted, never mixed into latencies.",
        "Quantiles: exact, numpy's default 'linear' definition (R type 7); stddev is the sample standard deviation"
            + " (ddof = 1).",
        "Outliers: " + request.outliers().describe() + ", applied per step and group before every latency figure.",
        "Mann-Whitney U: two-sided, candidate's U; exact permutation distribution (ties included) when n_b + n_c <= "
            + MannWhitneyU.EXACT_MAX_TOTAL + ", else normal approximation with tie correction and continuity correction.",
        "Welch's t: two-sided, unequal variances, Welch-Satterthwaite degrees of freedom.",
        "Kolmogorov-Smirnov: two-sided two-sample D; exact p when both groups have <= " + KolmogorovSmirnov.EXACT_MAX_N
            + " tasks, else Smirnov's asymptotic distribution (as scipy's ks_2samp).",
        "Fisher: exact test on errors vs successful tasks, two-sided.",
        "Hodges-Lehmann: median of all candidate - baseline differences with Moses' 95% interval; exact over all"
            + " pairs up to " + tuning.hodgesLehmannExactLimit() + " tasks per group, else on a random sample of that"
            + " many tasks per group (seed " + tuning.seed() + ").",
        "Cliff's delta: P(candidate > baseline) - P(candidate < baseline); negligible < 0.147 <= small < 0.33 <="
            + " medium < 0.474 <= large.",
        String.format(Locale.ROOT, "Median ratio: candidate / baseline, 95%% percentile bootstrap over all tasks"
            + " (%d resamples, seed %d; each resample's median drawn exactly from order statistics).",
            tuning.bootstrapResamples(), tuning.seed()),
        "Run level: the run is the unit of replication; per-run medians (and throughputs) compared with the exact"
            + " Mann-Whitney test; 'enough runs' means its smallest possible p can reach alpha after the correction.",
        "Multiple steps: " + request.correction().label() + " adjustment of the task-level and of the run-level"
            + " p-values across the steps compared.",
        "Verdict: inconclusive without successful tasks on a side or without enough runs; otherwise significant when"
            + " both the run-level and the task-level adjusted p are below alpha = " + Format.significant(request.alpha(), 3)
            + ", negligible when the median moves by less than the margin of +/-" + Format.percent(request.margin())
            + ", else faster or slower.");
  }
}
