package dev.benchlake.app.study;

import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.spark.SparkOptions;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake study versions}: how did performance change across PostgreSQL majors? */
@Command(name = "versions", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    sortOptions = false,
    description = {
      "The PostgreSQL version study (mdcallag's sysbench study of 11 to 16) in one command: every major of --pg "
          + "on a fresh embedded server per run, --repeats rounds in an order shuffled by --seed, the runs "
          + "ingested into the warehouse, then the trend of each step's qps relative to the first major "
          + "(trend.json, trend.md, trend.html).",
      "The defaults are a short study: 3 majors x 2 rounds of the whole mytools step set (48 steps) at 1 s "
          + "each on 4 tables of 10000 rows: 6 runs of about 1 minute, 7.5 minutes in all on a busy 2-core "
          + "machine. The real study: --tables 4 --table-size 20000000 --read-duration 600s "
          + "--write-duration 900s --warmup 5s."
    },
    footer = {"", "Example:",
      "  benchlake study versions --pg 11,12,13,14,15,16,17 --steps mytools --repeats 3 --out study1",
      "", "Exit codes: 0 done, 1 a run failed, 2 bad usage or bad input (e.g. a major without embedded binaries)."})
public final class VersionsCommand implements Callable<Integer> {
  @Option(names = "--pg", paramLabel = "MAJOR,MAJOR", split = ",", defaultValue = "11,14,17",
      description = "PostgreSQL majors, the trend's base first (default: ${DEFAULT-VALUE}; embedded: 11..17).")
  List<Integer> majors;

  @Option(names = "--steps", paramLabel = "STEP", split = ",", defaultValue = "mytools",
      description = "loadgen sysbench steps (default: ${DEFAULT-VALUE}, the study's whole sequence; or some of "
          + "its <testType>_range=<R> steps).")
  List<String> steps;

  @Option(names = "--repeats", paramLabel = "N", defaultValue = "2",
      description = "Rounds: runs per major (default: ${DEFAULT-VALUE}; intervals need 2 or more).")
  int repeats;

  @Option(names = "--seed", paramLabel = "N", description = "Seed of the run order and the data (default: random; "
      + "printed and recorded in study.json).")
  Long seed;

  @Option(names = "--tables", paramLabel = "N", defaultValue = "4",
      description = "sbtest tables (default: ${DEFAULT-VALUE}, as the study).")
  int tables;

  @Option(names = "--table-size", paramLabel = "ROWS", defaultValue = "10000",
      description = "Rows per table (default: ${DEFAULT-VALUE}; the study: 20000000).")
  int tableSize;

  @Option(names = "--clients", paramLabel = "N", defaultValue = "1",
      description = "Connections (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--read-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
      description = "Measured time of each read step (default: ${DEFAULT-VALUE}).")
  Duration readDuration;

  @Option(names = "--write-duration", paramLabel = "DURATION", defaultValue = "1s", converter = DurationConverter.class,
      description = "Measured time of each write step (default: ${DEFAULT-VALUE}).")
  Duration writeDuration;

  @Option(names = "--warmup", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
      description = "Warm-up of each step (default: ${DEFAULT-VALUE}; the study: 5s).")
  Duration warmup;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "study-versions",
      description = "A new or empty folder for runs/, trend/, study.json (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--warehouse", paramLabel = "DIR",
      description = "The warehouse to ingest into (default: DIR/warehouse under --out); the trend reads this study's "
          + "runs only.")
  Path warehouse;

  @Mixin
  SparkOptions sparkOptions;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() throws Exception {
    long theSeed = seed != null ? seed : new SplittableRandom().nextLong();
    VersionStudyPlan plan;
    try {
      plan = new VersionStudyPlan(majors, repeats, theSeed, steps, tables, tableSize, clients, readDuration,
          writeDuration, warmup);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    Path outDir = out.toAbsolutePath().normalize();
    Path warehouseDir = warehouse != null ? warehouse.toAbsolutePath().normalize() : outDir.resolve("warehouse");
    PrintWriter err = spec.commandLine().getErr();
    VersionStudy study = new VersionStudy(plan, outDir, warehouseDir, err);
    study.validate();
    err.println("study: seed " + theSeed + ", " + plan.schedule().size() + " runs: "
        + String.join(" ", plan.schedule().stream().map(VersionStudyPlan.Run::dirName).toList()));
    err.flush();
    long startNs = System.nanoTime();
    VersionStudy.Outcome outcome = study.run(() -> sparkOptions.session("study-versions"));
    PrintWriter stdout = spec.commandLine().getOut();
    stdout.println("Study " + outcome.studyId() + ": " + outcome.runDirs().size() + " runs in " + outDir.resolve("runs"));
    stdout.println("Trend report: " + outcome.trendDir().resolve(TrendFiles.HTML) + " (also " + TrendFiles.JSON + ", "
        + TrendFiles.MARKDOWN + ")");
    stdout.println("Warehouse:    " + warehouseDir);
    stdout.println("Run order:    " + outDir.resolve(VersionStudy.STUDY_FILE));
    stdout.printf(Locale.ROOT, "Done in %.0f s.%n", (System.nanoTime() - startNs) / 1e9);
    stdout.flush();
    return ExitCode.OK;
  }
}
