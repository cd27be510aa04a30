package dev.benchlake.ingest.format;

import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/** pgbench's text output (progress lines and summary), one file per run, into {@code step_metrics}. */
public final class PgbenchSummaryFormat implements SourceFormat {
  @Override
  public String name() {
    return "pgbench";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    for (String line : probe.lines()) {
      String t = line.trim();
      if (t.startsWith("transaction type:") || t.startsWith("number of transactions actually processed:")
          || t.matches("pgbench \\(\\d+.*\\)") || t.matches("progress: \\d+(\\.\\d+)? s, \\d+(\\.\\d+)? tps.*")) {
        return Optional.of("pgbench output ('" + t + "')");
      }
    }
    return Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) {
    PgbenchSummaryParser parser = new PgbenchSummaryParser(context.step());
    return paths.stream()
        .map(p -> SourcePlan.of(name(), List.of(PlannedFile.document(p, parser)),
            new RunInfo("complete", null, null, Map.of(), Workloads.of(Workloads.PGBENCH), Map.of())))
        .toList();
  }
}
