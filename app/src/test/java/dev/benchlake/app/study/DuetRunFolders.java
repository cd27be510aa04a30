package dev.benchlake.app.study;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Run folders as a duet writes them, for the tests of what reads them before any ingest. */
final class DuetRunFolders {
  private DuetRunFolders() {}

  /**
   * A run folder {@code name} under {@code parent}: one successful measured task per step, its
   * latency as given (ns), and a manifest labelled as a duet labels its runs.
   *
   * @param cpus the run's CPU set label (null: none)
   * @param control {@code aa} for an a/a control round's run (null: a comparison round's)
   */
  static StudyRuns.Done run(Path parent, String name, int round, String side, String cpus, String control,
      Map<String, Long> latencyByStep) throws IOException {
    Path dir = Files.createDirectories(parent.resolve(name));
    List<String> lines = new ArrayList<>(List.of(TaskCsv.HEADER));
    latencyByStep.forEach((step, latency) -> lines.add(TaskCsv.format(
        new TaskRecord(step, 1, 0, 0, 0, latency, 0, false, true, "", ""))));
    Files.write(dir.resolve(RunDirectory.TASKS), lines, StandardCharsets.UTF_8);
    TreeMap<String, String> labels = new TreeMap<>(Map.of("round", String.valueOf(round), "side", side,
        "pair", "sysbench", "design", "duet"));
    if (cpus != null) {
      labels.put("cpus", cpus);
    }
    if (control != null) {
      labels.put("control", control);
    }
    RunManifest manifest = new RunManifest(RunManifest.FORMAT_VERSION, name, new RunManifest.Tool("benchlake-loadgen",
        "test"), "2026-12-04T10:00:00Z", "2026-12-04T10:00:30Z", 0L, RunStatus.COMPLETE, null,
        new RunManifest.Workload("sysbench", List.copyOf(latencyByStep.keySet()), new TreeMap<>()),
        new RunManifest.Mode("closed", 1, 1L, null, 0.0, null, null, null),
        new RunManifest.Target("jdbc:postgresql://127.0.0.1:5432/postgres", true, "PostgreSQL 17.4", 17,
            new TreeMap<>()),
        new RunManifest.Client("host", "Linux", "6.1", "amd64", 2, null, "17"), labels, null);
    return new StudyRuns.Done(dir, manifest);
  }
}
