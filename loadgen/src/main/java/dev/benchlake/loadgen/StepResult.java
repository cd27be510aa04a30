package dev.benchlake.loadgen;

import java.util.List;
import java.util.Map;

/**
 * What one step did. Latency quantiles come from an HdrHistogram with two significant digits
 * (within 1 %) over successful measured tasks, from each task's intended start; the exact
 * statistics are for {@code benchlake ingest} and the analysis, from tasks.csv.
 *
 * @param step the step's name
 * @param taskNames the names its tasks are recorded under
 * @param attempts tasks attempted, warm-up included
 * @param ok of which succeeded
 * @param errors of which failed
 * @param measuredOk successful tasks after the warm-up
 * @param measuredErrors failed tasks after the warm-up
 * @param measuredS seconds from the first measured task's intended start to the last one's end
 * @param okPerSecond measuredOk / measuredS (0 when nothing was measured)
 * @param p50Ns median latency
 * @param p95Ns 95th percentile
 * @param p99Ns 99th percentile
 * @param maxNs largest latency
 * @param errorsBySqlstate failed tasks per SQLSTATE ({@code none} when the failure had none)
 * @param exampleErrors one message per SQLSTATE
 */
public record StepResult(String step, List<String> taskNames, long attempts, long ok, long errors, long measuredOk,
    long measuredErrors, double measuredS, double okPerSecond, long p50Ns, long p95Ns, long p99Ns, long maxNs,
    Map<String, Long> errorsBySqlstate, Map<String, String> exampleErrors) {}
