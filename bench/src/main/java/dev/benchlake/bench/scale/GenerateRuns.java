package dev.benchlake.bench.scale;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.VersionProvider;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * Generates the input of bench/scale.sh: {@code --runs} loadgen run directories
 * ({@code scale-000} …) under {@code --dir}, one {@link SyntheticRun} each, written in parallel.
 * A folder that already holds the same generation (its {@code .generated} marker, which ingest skips as a hidden file, says so) is kept.
 */
@Command(name = "generate-runs", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Writes synthetic loadgen run directories (manifest.json + tasks.csv) for the scale benchmark.")
public final class GenerateRuns implements Callable<Integer> {
  @Option(names = "--dir", required = true, description = "Folder of the run directories.")
  Path dir;

  @Option(names = "--runs", defaultValue = "20", description = "Runs (default: ${DEFAULT-VALUE}).")
  int runs;

  @Option(names = "--tasks-per-run", defaultValue = "5000000", description = "Tasks per run (default: ${DEFAULT-VALUE}).")
  long tasksPerRun;

  @Option(names = "--steps", defaultValue = "10", description = "Steps per run (default: ${DEFAULT-VALUE}).")
  int steps;

  @Option(names = "--clients", defaultValue = "16", description = "Clients per run (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--versions", defaultValue = "4", description = "Values of the version label (default: ${DEFAULT-VALUE}).")
  int versions;

  @Option(names = "--threads", description = "Runs written at once (default: the available processors).")
  int threads = Runtime.getRuntime().availableProcessors();

  @Override
  public Integer call() throws Exception {
    String marker = String.format(Locale.ROOT, "runs=%d tasks_per_run=%d steps=%d clients=%d versions=%d%n", runs,
        tasksPerRun, steps, clients, versions);
    Path done = dir.resolve(".generated");
    if (Files.isRegularFile(done) && Files.readString(done, StandardCharsets.UTF_8).equals(marker)) {
      System.err.println("kept the runs already generated in " + dir);
      return 0;
    }
    if (Files.exists(dir)) {
      throw new IllegalStateException(dir + " exists but holds another generation; remove it first");
    }
    long started = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, threads));
    try {
      List<Future<?>> written = new ArrayList<>();
      for (int i = 0; i < runs; i++) {
        SyntheticRun run = new SyntheticRun(i, runs, tasksPerRun, steps, clients, versions);
        written.add(pool.submit(() -> RunFiles.write(dir.resolve(run.runId()), run)));
      }
      for (Future<?> f : written) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    Files.writeString(done, marker, StandardCharsets.UTF_8);
    System.err.printf(Locale.ROOT, "generated %,d tasks in %d runs into %s in %.1f s%n", runs * tasksPerRun, runs, dir,
        (System.nanoTime() - started) / 1e9);
    return 0;
  }

  public static void main(String[] args) {
    System.exit(Cli.execute(new GenerateRuns(), args));
  }
}
