package dev.benchlake.ingest.format;

import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * sysbench 1.0 text output, one file per run, into {@code step_metrics}. sysbench does not print
 * the test's name, so the step is {@code --step}, else the file name without its extension
 * ({@code oltp_read_write.txt} → {@code oltp_read_write}). Its runs are {@code workload=sysbench}
 * ({@link Workloads}).
 */
public final class SysbenchFormat implements SourceFormat {
  @Override
  public String name() {
    return "sysbench";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    for (String line : probe.lines()) {
      String t = line.trim();
      if (t.matches("sysbench \\d+\\.\\d+\\.\\d+.*") || t.equals("SQL statistics:") || t.matches("\\[ ?\\d+s \\] thds: .*")) {
        return Optional.of("sysbench output ('" + t + "')");
      }
    }
    return Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) {
    List<SourcePlan> plans = new ArrayList<>();
    for (Path path : paths) {
      String step = context.step() != null ? context.step() : stem(path);
      plans.add(SourcePlan.of(name(), List.of(PlannedFile.document(path, new SysbenchParser(step))),
          new RunInfo("complete", null, null, Map.of(), Workloads.of(Workloads.SYSBENCH),
              Map.of("step_from", context.step() != null ? "--step" : "file name"))));
    }
    return plans;
  }

  static String stem(Path path) {
    String name = path.getName();
    int dot = name.lastIndexOf('.');
    return dot > 0 ? name.substring(0, dot) : name;
  }
}
