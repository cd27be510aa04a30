package dev.benchlake.bench.scale;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.io.BufferedReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generated runs read back as loadgen's contract says, and carry what the scale pipeline needs. */
class RunFilesTest {
  @TempDir
  Path dir;

  @Test
  void aRunReadsBackLineByLineAsLoadgenWritesIt() throws Exception {
    SyntheticRun run = new SyntheticRun(3, 8, 10_003, 10, 4, 4);
    RunManifest written = RunFiles.write(dir.resolve(run.runId()), run);

    RunManifest manifest = RunManifest.read(RunDirectory.manifest(dir.resolve(run.runId())));
    assertThat(manifest.toJson()).isEqualTo(written.toJson());
    assertThat(manifest.runId()).isEqualTo("scale-003");
    assertThat(manifest.status()).isEqualTo(RunStatus.COMPLETE);
    assertThat(manifest.labels()).containsEntry("os", "b").containsEntry("version", "1.1");
    assertThat(manifest.workload().steps()).hasSize(10).first().isEqualTo("step-00");

    Map<String, Integer> perStep = new TreeMap<>();
    long errors = 0;
    long lastEnd = 0;
    try (BufferedReader in = Files.newBufferedReader(RunDirectory.tasks(dir.resolve(run.runId())), StandardCharsets.UTF_8)) {
      assertThat(in.readLine()).isEqualTo(TaskCsv.HEADER);
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        TaskRecord task = TaskCsv.parse(line); // throws on anything ingest would reject
        perStep.merge(task.step(), 1, Integer::sum);
        errors += task.ok() ? 0 : 1;
        lastEnd = Math.max(lastEnd, task.endNs());
      }
    }
    // 10,003 tasks over 10 steps: the first three steps get one more.
    assertThat(perStep).hasSize(10).containsEntry("step-00", 1001).containsEntry("step-02", 1001)
        .containsEntry("step-03", 1000).containsEntry("step-09", 1000);
    assertThat(manifest.summary().attempts()).isEqualTo(10_003);
    assertThat(manifest.summary().errors()).isEqualTo(errors);
    assertThat(manifest.summary().ok()).isEqualTo(10_003 - errors);
    assertThat(java.time.Duration.between(java.time.Instant.parse(manifest.startedAt()),
        java.time.Instant.parse(manifest.finishedAt())).toNanos()).isEqualTo(lastEnd);
  }

  @Test
  void theSameIndexGivesTheSameRunAndOsBIsSlower() throws Exception {
    byte[] first = tasksOf(new SyntheticRun(0, 2, 20_000, 2, 4, 1), "x");
    assertThat(tasksOf(new SyntheticRun(0, 2, 20_000, 2, 4, 1), "y")).isEqualTo(first);
    double medianA = medianLatency(new SyntheticRun(0, 2, 20_000, 1, 4, 1));
    double medianB = medianLatency(new SyntheticRun(1, 2, 20_000, 1, 4, 1));
    // 3 % slower by construction, blurred by the per-run factor (sd 5 % on the log scale).
    assertThat(medianB / medianA).isBetween(0.85, 1.25).isNotEqualTo(1.0);
  }

  @Test
  void versionsSplitTheRunsInConsecutiveBlocks() {
    List<String> versions = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      versions.add(new SyntheticRun(i, 20, 10, 10, 1, 4).version());
    }
    assertThat(versions).containsExactly("1.0", "1.0", "1.0", "1.0", "1.0", "1.1", "1.1", "1.1", "1.1", "1.1",
        "1.2", "1.2", "1.2", "1.2", "1.2", "1.3", "1.3", "1.3", "1.3", "1.3");
  }

  private byte[] tasksOf(SyntheticRun run, String name) throws Exception {
    RunFiles.write(dir.resolve(name), run);
    return Files.readAllBytes(RunDirectory.tasks(dir.resolve(name)));
  }

  private static double medianLatency(SyntheticRun run) {
    List<Long> latencies = new ArrayList<>();
    run.tasks(task -> latencies.add(task.latencyNs()));
    long[] sorted = latencies.stream().mapToLong(Long::longValue).toArray();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
