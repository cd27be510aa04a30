package dev.benchlake.bench.scale;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.TaskCsv;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes a {@link SyntheticRun} as a loadgen run directory (the loadgen → ingest contract of
 * {@link RunDirectory}): tasks.csv line by line through {@link TaskCsv}, the format loadgen itself
 * writes, then the final manifest. Memory stays at one buffer whatever the size of the run.
 */
final class RunFiles {
  private static final int BUFFER_CHARS = 1 << 20;

  private RunFiles() {}

  /** Writes the run into {@code dir} (created; must not hold a tasks.csv yet) and returns its manifest. */
  static RunManifest write(Path dir, SyntheticRun run) throws IOException {
    Files.createDirectories(dir);
    long[] counts = new long[3]; // attempts, errors, last end
    StringBuilder pending = new StringBuilder(BUFFER_CHARS + 512);
    try (OutputStream out = Files.newOutputStream(RunDirectory.tasks(dir), java.nio.file.StandardOpenOption.CREATE_NEW,
        java.nio.file.StandardOpenOption.WRITE)) {
      pending.append(TaskCsv.HEADER).append('\n');
      run.tasks(task -> {
        TaskCsv.appendLine(task, pending);
        counts[0]++;
        if (!task.ok()) {
          counts[1]++;
        }
        counts[2] = Math.max(counts[2], task.endNs());
        if (pending.length() >= BUFFER_CHARS) {
          flush(pending, out);
        }
      });
      flush(pending, out);
    }
    Map<String, Long> bySqlstate = new TreeMap<>();
    if (counts[1] > 0) {
      bySqlstate.put("40001", counts[1]);
    }
    RunManifest manifest = run.manifest(new RunManifest.Summary(counts[0], counts[0] - counts[1], counts[1],
        bySqlstate), counts[2]);
    manifest.writeAtomically(RunDirectory.manifest(dir));
    return manifest;
  }

  private static void flush(StringBuilder pending, OutputStream out) throws IOException {
    // String.getBytes has an intrinsic for all-ASCII text (as CsvTaskWriter notes).
    out.write(pending.toString().getBytes(StandardCharsets.UTF_8));
    pending.setLength(0);
  }
}
