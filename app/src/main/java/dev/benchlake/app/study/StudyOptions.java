package dev.benchlake.app.study;

import dev.benchlake.analysis.cli.FailOn;
import dev.benchlake.analysis.cli.StatisticsOptions;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetOptions;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.function.BiConsumer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * The options {@code study versions} and {@code study ab} share, declared once: the workload, the
 * seed, where the servers and the warehouse go, the duet, run until decided, the statistics,
 * Spark and the servers' profiles. ({@code --rounds} is each command's own mixin, as the quickstart's.)
 */
public final class StudyOptions {
  @Mixin
  SysbenchOptions sysbench;

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

  @Mixin
  DuetOptions duet;

  @Mixin
  UntilDecidedOptions untilDecided;

  @Mixin
  StatisticsOptions statistics;

  @Mixin
  SparkOptions spark;

  @Mixin
  FailOnOption failOn;

  @Mixin
  VerboseOption verbose;

  @Mixin
  ProfileOption profile;

  /** α, the margin and the correction, checked. */
  StatisticsSettings settings() {
    return statistics.settings();
  }

  /** The study that runs {@code plan} into {@code outDir}, its warehouse, its log {@code err}. */
  <R> Study<R> study(StudyPlan<R> plan, Path outDir, java.io.PrintWriter err, StatisticsSettings settings) {
    return new Study<>(plan, outDir, warehouseDir(outDir), err, settings).budget(untilDecided.budget())
        .verbose(verbose.on()).profile(profile.hz());
  }

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

  /**
   * Runs a study command's {@code study}: its settings checked, its first line on stderr ({@code study:
   * seed N, design D, } then {@code about}), its runs, then on stdout where its runs are, its
   * {@code reports}, its warehouse and its study file ({@code fileIs}: what the file is called there).
   *
   * @param command {@code study ab}: in the last line's hint, and the Spark session's name
   * @param calls the report's calls, which {@code --fail-on} reads
   * @return the exit code ({@link Study#printEnd}, then {@link FailOnOption#exitCode})
   */
  <R> int run(Study<R> study, StudyPlan<R> plan, Path outDir, CommandSpec spec, String about, String command,
      BiConsumer<PrintWriter, Study.Outcome<R>> reports, String fileIs,
      java.util.function.Function<R, java.util.List<FailOn.Call>> calls) throws IOException, InterruptedException {
    study.checkSettings();
    PrintWriter err = spec.commandLine().getErr();
    err.println("study: seed " + plan.seed() + ", design " + plan.design() + ", " + about);
    err.flush();
    long startNs = System.nanoTime();
    Study.Outcome<R> outcome = study.run(() -> verbose.session(spark, command.replace(' ', '-')));
    PrintWriter stdout = spec.commandLine().getOut();
    Study.printStart(stdout, outcome, outDir);
    reports.accept(stdout, outcome);
    stdout.println("Warehouse:    " + warehouseDir(outDir));
    stdout.println(fileIs + outDir.resolve(StudyFile.NAME));
    int ended = Study.printEnd(stdout, err, outcome.cutShort(), startNs, command, outDir);
    return failOn.exitCode(ended, command, calls.apply(outcome.report()), outcome.control(), err);
  }

  /** A duet's CPU sets in a study's first line: {@code CPU sets 0 | 1 (swapped …)}. */
  static String cpuSets(DuetCpus cpus) {
    return "CPU sets " + cpus.one() + " | " + cpus.two() + " (" + cpus.swapInWords() + ")";
  }

  /** The warehouse: as given, or {@code warehouse/} in the study's folder. */
  Path warehouseDir(Path outDir) {
    return warehouse != null ? warehouse.toAbsolutePath().normalize() : outDir.resolve("warehouse");
  }
}
