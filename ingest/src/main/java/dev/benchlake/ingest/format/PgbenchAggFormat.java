package dev.benchlake.ingest.format;

import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * pgbench {@code --aggregate-interval} logs into {@code step_metrics}, one set of rows per
 * interval, merged across the run's per-thread files (see {@link PgbenchAggParser} and
 * {@link PgbenchAggMerge}). Interval starts are seconds from the run's first interval; the
 * interval length is the distance between the first two intervals of the first file (null when
 * it has one line); the run starts at its first interval.
 */
public final class PgbenchAggFormat implements SourceFormat {
  @Override
  public String name() {
    return "pgbench-agg";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    List<String> head = probe.nonBlank(5);
    if (!head.isEmpty() && head.stream().allMatch(PgbenchAggFormat::looksLikeAggregate)) {
      return Optional.of("pgbench --aggregate-interval lines: interval_start (epoch) and " + PgbenchLogFiles.fields(head.get(0)).length + " fields");
    }
    return Optional.empty();
  }

  private static boolean looksLikeAggregate(String line) {
    String[] f = PgbenchLogFiles.fields(line);
    if (f.length != 6 && f.length != 10 && f.length != 11 && f.length != 15) {
      return false;
    }
    for (String field : f) {
      if (!PgbenchLogFiles.isInteger(field)) {
        return false;
      }
    }
    // A per-transaction log line starts with a small client id; an aggregate line with an epoch.
    return Long.parseLong(f[0]) >= 100_000_000L;
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    String step = context.step() != null ? context.step() : PgbenchLogFormat.DEFAULT_STEP;
    List<SourcePlan> plans = new ArrayList<>();
    for (List<Path> run : PgbenchLogFiles.groupByRun(paths)) {
      Long origin = null;
      for (Path file : run) {
        Long first = firstIntervalStart(Heads.read(file, context.storage()));
        if (first != null && (origin == null || first < origin)) {
          origin = first;
        }
      }
      Double intervalS = intervalS(Heads.read(run.get(0), context.storage()));
      PgbenchAggParser parser = new PgbenchAggParser(step, origin == null ? 0 : origin, intervalS);
      List<PlannedFile> files = run.stream().map(p -> PlannedFile.lines(p, parser)).toList();
      Map<String, Object> metadata = new LinkedHashMap<>();
      metadata.put("threads_files", run.size());
      if (intervalS != null) {
        metadata.put("aggregate_interval_s", intervalS);
      }
      RunInfo info = new RunInfo("complete", origin == null ? null : Instant.ofEpochSecond(origin), null,
          Map.of(), Workloads.of(Workloads.PGBENCH), metadata);
      plans.add(SourcePlan.of(name(), files, info).withMetricsTransform(PgbenchAggMerge::merge));
    }
    return plans;
  }

  private static Long firstIntervalStart(List<String> head) {
    for (String line : head) {
      String[] f = PgbenchLogFiles.fields(line);
      if (f.length >= 6 && PgbenchLogFiles.isInteger(f[0])) {
        return Long.parseLong(f[0]);
      }
    }
    return null;
  }

  static Double intervalS(List<String> head) {
    Long previous = null;
    for (String line : head) {
      String[] f = PgbenchLogFiles.fields(line);
      if (f.length < 6 || !PgbenchLogFiles.isInteger(f[0])) {
        continue;
      }
      long start = Long.parseLong(f[0]);
      if (previous != null && start > previous) {
        return (double) (start - previous);
      }
      previous = start;
    }
    return null;
  }
}
