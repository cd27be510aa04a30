package dev.benchlake.app.study;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where a study's servers and warehouse go, and its seed: the options {@code study versions} and
 * {@code study ab} share.
 */
public final class StudyOptions {
  @Option(names = "--seed", paramLabel = "N", description = "Seed of the run order, the a/a rounds' places and the "
      + "data (default: random; printed and recorded in study.json).")
  Long seed;

  @Option(names = "--pg-dir", paramLabel = "DIR", description = "Where the embedded servers' clusters go (default: "
      + "the system temp directory).")
  Path pgDir;

  @Option(names = "--warehouse", paramLabel = "DIR",
      description = "The warehouse to ingest into (default: DIR/warehouse under --out); the reports read this study's "
          + "runs only.")
  Path warehouse;

  /** The seed given, or one drawn once. */
  long seed() {
    if (seed == null) {
      seed = new java.util.SplittableRandom().nextLong();
    }
    return seed;
  }

  /** The clusters' folder, absolute, or null for the temp directory. */
  Path pgDir() {
    return pgDir == null ? null : pgDir.toAbsolutePath().normalize();
  }

  /** What a study writes for the commands after it in a batch: its folder and its warehouse. */
  java.util.List<Path> writes(Path out) {
    Path outDir = out.toAbsolutePath().normalize();
    return dev.benchlake.core.cli.Validated.local(outDir, warehouseDir(outDir));
  }

  /** The warehouse: as given, or {@code warehouse/} in the study's folder. */
  Path warehouseDir(Path outDir) {
    return warehouse != null ? warehouse.toAbsolutePath().normalize() : outDir.resolve("warehouse");
  }
}
