package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.stats.HuberLogRatio;
import dev.benchlake.analysis.report.Uncorrected;
import dev.benchlake.analysis.stats.KolmogorovSmirnov;
import dev.benchlake.analysis.stats.MannWhitneyU;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.List;
import java.util.Locale;

/** The report's statement of method: what each figure is, one line each. */
final class Methods {
  private Methods() {}

  static List<String> describe(CompareRequest request, Pairing pairing) {
    CompareRequest.Tuning tuning = request.tuning();
    StatisticsSettings settings = request.settings();
    String theta = pairing.paired()
        ? " The change theta is the robust centre of the per-pair ratios of these per-run figures, candidate over"
            + " baseline (each baseline run paired with its candidate run: " + pairing.design() + "): the "
            + HuberLogRatio.NAME + " of the per-pair log ratios, so that a pair further than 1.345 scale units from"
            + " the fit pulls only that far and one disturbed round cannot overturn a verdict; its intervals (95% and"
            + " 90%) and its verdict come from the t of Huber's sandwich standard error (df = pairs - 1), exponentiated,"
            + " or, where the pairs swap two CPU sets with at least 2 pairs each way, from the same fit of the per-pair"
            + " log ratio with the set as a term (a two-period crossover, df = pairs - 2); a run without a"
            + " partner is dropped and listed, and a step with fewer than 2 complete pairs is inconclusive."
        : " The change theta is the ratio of the geometric means of these per-run figures, candidate over baseline;"
            + " its intervals come from Welch's t on their logs (95% and 90%), exponentiated.";
    return List.of(
        "Latency: from the intended start to the end of each successful task, warm-up tasks excluded; failed tasks"
            + " are counted, never mixed into latencies.",
        "The run is the unit of replication: per step, each run gives one median latency, one p99 and one"
            + " throughput (successful tasks per second)." + theta + " Median, p99 and throughput are three families"
            + (Uncorrected.applies(settings) ? "" : ", each corrected on its own")
            + "; only the medians' verdicts are calls and spend alpha (and a study's looks): p99 and throughput"
            + " verdicts are descriptive.",
        "Analysis: " + pairing.analysis() + " (design " + pairing.design() + "): " + pairing.reason() + ".",
        "Verdict (from the per-run medians only): equivalent when the " + confidence(1 - 2 * settings.alpha())
            + " interval lies within [1/(1+M), 1+M] with M = " + Format.percent(settings.margin()) + " (TOST);"
            + " otherwise faster or slower when the " + confidence(1 - settings.alpha()) + " interval excludes 1;"
            + " otherwise inconclusive, with " + (pairing.paired()
                ? "the pairs that 80% power would need at the observed SD of the per-pair log ratios (the one-sample"
                    + " t's exact power; with the CPU set fitted, the residual SD and df = pairs - 2). "
                : "the runs per group that 80% power would need at the observed between-run SD. ")
            + (Uncorrected.applies(settings)
                ? "Neither test is adjusted across the steps compared (none: " + Uncorrected.PURPOSE + "; alpha = "
                : "Both tests are adjusted across the steps compared (" + settings.correction().label() + ", alpha = ")
            + Format.significant(settings.alpha(), 3) + "). A group with no successful task or a single run is"
            + " inconclusive.",
        "Variance components: the between-run SD is the pooled SD of the log per-run medians; the within-run SE"
            + " of a run's log median (and log p99) is the SD of that log quantile over 400 resamples of the"
            + " run's own tasks (the bootstrap's inner stage, seed per run); the report shows the root mean square"
            + " over the runs.",
        pairing.paired()
            ? "No two-stage bootstrap beside a paired result: it draws each group's runs on their own, an unpaired"
                + " interval that would show the noise the pairing cancels; the paired intervals are the ones to read."
            : String.format(Locale.ROOT, "Two-stage bootstrap of the p50 and p99 ratios: %d resamples, seed %d; each"
                + " resample draws the runs of each group with replacement, then the tasks of each drawn run with"
                + " replacement from its latency histogram (buckets of at most 0.4%%), its quantile drawn exactly as an"
                + " order statistic (Beta-distributed rank); 2.5%% and 97.5%% percentiles of the ratio of geometric"
                + " means.", tuning.bootstrapResamples(), tuning.seed()),
        "Errors at run level: Welch's t on the per-run error rates (failed / all tasks of the run); Fisher's exact"
            + " test on the pooled tasks is descriptive.",
        "Outliers: " + request.outliers().describe() + ", fences fitted on each run's own latencies (never on a"
            + " pooled group), before every latency figure; the unfiltered p99 and max are shown too.",
        "Server starts: runs of one group that share a server start are flagged as not independent replicates.",
        "Within-run, descriptive (tasks treated as independent, so no verdict rests on them):",
        "Quantiles: exact, numpy's default 'linear' definition (R type 7); stddev is the sample standard deviation"
            + " (ddof = 1).",
        "Mann-Whitney U: two-sided, candidate's U; exact permutation distribution (ties included) when n_b + n_c <= "
            + MannWhitneyU.EXACT_MAX_TOTAL + ", else normal approximation with tie correction and continuity"
            + " correction; " + (Uncorrected.applies(settings) ? "not adjusted across steps (none)."
                : settings.correction().label() + "-adjusted across steps."),
        "Welch's t: two-sided, unequal variances, Welch-Satterthwaite degrees of freedom.",
        "Kolmogorov-Smirnov: two-sided two-sample D; exact p when both groups have <= " + KolmogorovSmirnov.EXACT_MAX_N
            + " tasks, else Smirnov's asymptotic distribution (as scipy's ks_2samp).",
        "Fisher: exact test on errors vs successful tasks, two-sided.",
        "Hodges-Lehmann: median of all candidate - baseline differences with Moses' 95% interval; exact over all"
            + " pairs up to " + tuning.hodgesLehmannExactLimit() + " tasks per group, else on a random sample of that"
            + " many tasks per group (seed " + tuning.seed() + ").",
        "Cliff's delta: P(candidate > baseline) - P(candidate < baseline); negligible < 0.147 <= small < 0.33 <="
            + " medium < 0.474 <= large.",
        String.format(Locale.ROOT, "Pooled median ratio: candidate / baseline, 95%% percentile bootstrap over all"
            + " tasks (%d resamples, seed %d; each resample's median drawn exactly from order statistics).",
            tuning.bootstrapResamples(), tuning.seed()));
  }

  private static String confidence(double level) {
    return Format.percent(level);
  }
}
