package dev.benchlake.ingest.cli;

import static org.apache.spark.sql.functions.col;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@code benchlake ingest TREE}: the committed mytools tree (two rounds of PostgreSQL 14 and 16,
 * real sysbench) in one command, one run per result folder; a copy with one tampered summary; a
 * folder that changed after it was ingested.
 */
@org.junit.jupiter.api.Tag("integration")
class MytoolsIngestTest extends IngestTestSupport {
  private static final Path TREE = fixture("mytools");

  private static CommandRun ingest(Path warehouse, String... args) {
    return IngestCommands.ingestInto(warehouse, args);
  }

  /** The steps of each folder's run: all_small.sh's first point-query.pre ran at dop 2, the rest at 1. */
  private static final List<String> STEPS = List.of("point-query.pre_range=100", "point-query.pre_range=100_dop=2",
      "point-query_range=100", "random-points_range=10", "read-only_range=10", "update-index_range=100");

  @Test
  void theTreeIsOneCommandOneRunPerFolderWithItsLabelsAndEveryOutputAStep() throws IOException {
    List<Path> rawOutputs = files(TREE, "sb.o.");
    CommandRun run = ingest(tmp.resolve("warehouse"), "--label-from-path", "/r(?<round>\\d+)/x\\.",
        "--label-from-path", "x\\.pg(?<pg_major>\\d\\d)(?<pg_minor>\\d+)_", "--label", "os=linux", TREE.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(rawOutputs).hasSize(4 * 6);
    // Two rounds of two majors: four folders, four runs (this was one run per sb.o file: 24).
    assertThat(run.stdout().lines().toList()).hasSize(4).allMatch(id -> id.matches("mytools-[0-9a-f]{16}"));

    List<Row> runs = warehouse().runs().orderBy("run_id").collectAsList();
    assertThat(runs).hasSize(4);
    Map<String, List<String>> qpsSteps = new TreeMap<>();
    for (Row m : warehouse().stepMetrics().where(col("metric").equalTo("qps").and(col("interval_start_s").isNull()))
        .orderBy("source_line").select("run_id", "step").collectAsList()) {
      qpsSteps.computeIfAbsent(m.getString(0), id -> new ArrayList<>()).add(m.getString(1));
    }
    List<String> folders = new ArrayList<>();
    for (Row r : runs) {
      Map<String, String> labels = CollectionConverters.asJava(r.<scala.collection.Map<String, String>>getAs("labels"));
      String major = r.getAs("db_major").toString();
      assertThat(labels).containsEntry("dbms", "pg").containsEntry("build", "embedded").containsEntry("config", "default")
          .containsEntry("pk", "1").containsEntry("os", "linux").containsEntry("pg_major", major)
          .containsEntry("version", major + labels.get("pg_minor")).containsKey("round");
      assertThat(r.<String>getAs("db_version")).isEqualTo(major + "." + labels.get("pg_minor"));
      assertThat(r.<String>getAs("workload")).isEqualTo("sysbench");
      assertThat(r.<String>getAs("source_format")).isEqualTo("mytools");
      assertThat(r.<Integer>getAs("clients")).as("the dop of five of its six outputs").isEqualTo(1);
      assertThat(r.<String>getAs("metadata_json")).doesNotContain("password").doesNotContain("\"pw\"")
          .contains("\"point-query.pre_range=100_dop=2/option.threads\":\"2\"",
              "\"point-query_range=100/option.threads\":\"1\"", "\"mytools_folder\":\"x.pg" + major);
      // Every sb.o and sb.r file of the folder is a source file of its one run.
      List<Row> sourceFiles = r.getList(r.fieldIndex("source_files"));
      assertThat(sourceFiles).hasSize(6 + 25).allSatisfy(f -> assertThat(f.getString(0))
          .contains("/r" + labels.get("round") + "/x.pg" + labels.get("version") + "_"));
      assertThat(qpsSteps.get(r.<String>getAs("run_id"))).as("one whole-run qps per step")
          .containsExactlyInAnyOrderElementsOf(STEPS);
      folders.add("r" + labels.get("round") + " pg" + major);
    }
    assertThat(folders).containsExactlyInAnyOrder("r1 pg14", "r1 pg16", "r2 pg14", "r2 pg16");
    assertThat(warehouse().rejects().count()).isZero();

    // The summary lists what is not a result, never skipping it silently.
    List<Path> others = new ArrayList<>(files(TREE, ""));
    others.removeIf(p -> p.getFileName().toString().startsWith("sb.o.") || p.getFileName().toString().startsWith("sb.r."));
    assertThat(others).hasSize(4 * (1 + 2 + 6 + 5));
    for (Path other : others) {
      assertThat(run.stderr()).contains(other + ": not a result (");
    }
    assertThat(run.stderr()).contains(TREE.resolve("r1/x.pg1424_embedded.default.pk1/conf.diff")
        + ": not a result (server configuration (differences from the defaults)), not read",
        others.size() + " files were not read (listed above)");
    assertThat(run.stderr()).contains(TREE.resolve("r2/x.pg1615_embedded.default.pk1/sb.r.qps.point-query.range100.pk1")
        + ": accepted 1, rejected 0");

    // Again: the same four runs, nothing added; a file of one folder named alone is that folder's run.
    CommandRun again = ingest(tmp.resolve("warehouse"), TREE.toString(),
        TREE.resolve("r1/x.pg1424_embedded.default.pk1/sb.o.read-only.range10.pk1.dop1").toString());
    assertThat(again.exitCode()).as(again.stderr()).isEqualTo(ExitCode.OK);
    assertThat(again.stderr()).contains(TREE.resolve("r1/x.pg1424_embedded.default.pk1") + ": already ingested as run ");
    assertThat(warehouse().runs().count()).isEqualTo(4);
  }

  @Test
  void aTamperedSummaryIsARejectWithItsReasonAndTheRunStays() throws IOException {
    Path copy = copyFolder(TREE.resolve("r1/x.pg1615_embedded.default.pk1"));
    Path qps = copy.resolve("sb.r.qps.read-only.range10.pk1");
    String[] fields = Files.readString(qps).strip().split("\t");
    String tampered = Math.round(Double.parseDouble(fields[0]) * 1.1) + "\t" + fields[1];
    Files.writeString(qps, tampered + "\n", StandardCharsets.UTF_8);

    CommandRun run = ingest(tmp.resolve("warehouse"), copy.getParent().toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    assertThat(run.stderr()).contains(qps + ": accepted 0, rejected 1");
    Warehouse w = warehouse();
    assertThat(w.runs().count()).isEqualTo(1);
    List<Row> rejects = w.rejects().collectAsList();
    assertThat(rejects).singleElement().satisfies(r -> {
      assertThat(r.<String>getAs("source_file")).isEqualTo(qps.toString());
      assertThat(r.<Long>getAs("line_no")).isEqualTo(1L);
      assertThat(r.<String>getAs("raw_line")).isEqualTo(tampered);
      assertThat(r.<String>getAs("error_type")).isEqualTo("mismatch");
      assertThat(r.<String>getAs("column")).isEqualTo("qps");
      assertThat(r.<String>getAs("reason")).isEqualTo("disagrees with the raw sysbench output: qps " + tampered.split("\t")[0]
          + " for dop 1 disagrees with sb.o.read-only.range10.pk1.dop1, which gives " + fields[0]);
    });
    // The reject belongs to the folder's run, which keeps the step's figures.
    Row folderRun = w.runs().first();
    assertThat(rejects.get(0).<String>getAs("run_id")).isEqualTo(folderRun.<String>getAs("run_id"));
    assertThat(folderRun.<Long>getAs("lines_rejected")).isEqualTo(1L);
    assertThat(w.stepMetrics().where(col("run_id").equalTo(folderRun.<String>getAs("run_id"))
        .and(col("metric").equalTo("qps")).and(col("step").equalTo("read-only_range=10"))).count()).isPositive();
  }

  /**
   * A folder ingested, then one of its outputs changed (a step run again): its files are in the
   * committed run, from other content. Landing the new reading beside it would count the folder
   * twice: refused with one line and nothing written; {@code --replace} replaces it. The same
   * path takes the runs that release 0.3.0 made of a folder, one per output (CompatibilityIT).
   */
  @Test
  void aFolderWhoseFilesAnotherRunHoldsIsRefusedUnlessReplaced() throws IOException {
    Path copy = copyFolder(TREE.resolve("r2/x.pg1424_embedded.default.pk1"));
    CommandRun first = ingest(tmp.resolve("warehouse"), copy.toString());
    assertThat(first.exitCode()).as(first.stderr()).isEqualTo(ExitCode.OK);
    String firstRun = first.stdout().strip();

    Path output = copy.resolve("sb.o.update-index.range100.pk1.dop1");
    Files.writeString(output, Files.readString(output).replace("Threads started!", "Threads started!\n"));
    long stepMetrics = warehouse().stepMetrics().count();
    CommandRun refused = ingest(tmp.resolve("warehouse"), copy.toString());
    assertThat(refused.exitCode()).as(refused.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(refused.stderr().lines().filter(l -> l.startsWith("ingest: ")).toList()).containsExactly("ingest: " + copy
        + ": 1 run in the warehouse already holds"
        + " files of this folder, from other content (an earlier release stored a mytools folder as one run per output"
        + " file; or the folder changed since it was ingested); add --replace to replace them by one run per folder");
    assertThat(refused.stderr().lines().reduce((a, b) -> b)).get().asString().startsWith("ingest: " + copy + ": 1 run");
    assertThat(warehouse().runs().collectAsList()).extracting(r -> r.getString(0)).containsExactly(firstRun);
    assertThat(warehouse().stepMetrics().count()).isEqualTo(stepMetrics);

    CommandRun replaced = ingest(tmp.resolve("warehouse"), "--replace", copy.toString());
    assertThat(replaced.exitCode()).as(replaced.stderr()).isEqualTo(ExitCode.OK);
    String newRun = replaced.stdout().strip();
    assertThat(newRun).isNotEqualTo(firstRun);
    assertThat(replaced.stderr()).contains("run " + newRun + " (mytools): replaced, ");
    assertThat(warehouse().runs().collectAsList()).extracting(r -> r.getString(0)).containsExactly(newRun);
    assertThat(warehouse().stepMetrics().select("run_id").distinct().collectAsList()).extracting(r -> r.getString(0))
        .containsExactly(newRun);
    assertThat(warehouse().stepMetrics().count()).isEqualTo(stepMetrics);
  }

  /**
   * mytools' sb.met files (the hand-written {@code fixtures/mytools-met}): each step's whole-machine
   * figures land as {@code machine_…} rows of that step, its hostile lines as rejects with their reasons,
   * and the rest of the run as it was. A folder ingested before they were read is still recognised
   * ("already ingested"), and {@code --replace} adds them to the same run.
   */
  @Test
  void anAnShSummaryGivesItsStepsMachineFiguresAndItsHostileLinesRejectsWithReasons() throws IOException {
    Path copy = copyFolder(fixture("mytools-met").resolve("x.pg1424_embedded.default.pk1"));
    List<Path> mets = files(copy, "sb.met.");
    Path held = Files.createDirectories(tmp.resolve("held"));
    for (Path met : mets) {
      Files.move(met, held.resolve(met.getFileName()));
    }
    CommandRun before = ingest(tmp.resolve("warehouse"), copy.toString());
    assertThat(before.exitCode()).as(before.stderr()).isEqualTo(ExitCode.OK);
    String runId = before.stdout().strip();
    long rowsBefore = warehouse().stepMetrics().count();
    for (Path met : mets) {
      Files.move(held.resolve(met.getFileName()), met);
    }

    CommandRun again = ingest(tmp.resolve("warehouse"), copy.toString());
    assertThat(again.exitCode()).as(again.stderr()).isEqualTo(ExitCode.OK);
    assertThat(again.stderr()).contains(copy + ": already ingested as run " + runId + ", nothing added");
    assertThat(warehouse().stepMetrics().where(col("metric").startsWith("machine_")).count()).isZero();

    CommandRun replaced = ingest(tmp.resolve("warehouse"), "--replace", copy.toString());
    assertThat(replaced.exitCode()).as(replaced.stderr()).isEqualTo(ExitCode.OK);
    assertThat(replaced.stdout().strip()).isEqualTo(runId);
    Path good = copy.resolve("sb.met.point-query.range100.pk1.dop1");
    assertThat(replaced.stderr()).contains(good + ": accepted 6, rejected 0",
        copy.resolve("sb.met.point-query.pre.range100.pk1.dop2") + ": accepted 0, rejected 4",
        copy.resolve("sb.met.read-only.range10.pk1.dop1") + ": accepted 5, rejected 1",
        copy.resolve("sb.met.scan.range100.pk1.dop1") + ": not a result (resource summary (an.sh) without a sysbench"
            + " output read beside it (sb.o.scan.range100.pk1.dop1 with figures)), not read");
    Warehouse w = warehouse();
    Map<String, String> figures = new TreeMap<>();
    for (Row r : w.stepMetrics().where(col("metric").startsWith("machine_")).collectAsList()) {
      figures.put(r.<String>getAs("step") + " " + r.<String>getAs("metric"), r.<Double>getAs("value") + " "
          + r.<String>getAs("unit"));
    }
    assertThat(figures).containsEntry("point-query_range=100 machine_cpu_us_per_op", "214.72 us")
        .containsEntry("point-query_range=100 machine_cpu_pct_s_per_op", "0.010736 %·s")
        .containsEntry("point-query_range=100 machine_cs_per_op", "7.2 count")
        .containsEntry("point-query_range=100 machine_read_kib_per_op", "0.064 KiB")
        .containsEntry("point-query_range=100 machine_write_kib_per_op", "0.41 KiB")
        .containsEntry("point-query_range=100 machine_reads_per_op", "0.002 count")
        .containsEntry("read-only_range=10 machine_cs_per_op", "8.0 count")
        .containsEntry("read-only_range=10 machine_cpu_us_per_op", "733.34 us");
    assertThat(figures).as("12 figures of point-query, the 5 of read-only's good line").hasSize(12 + 5);
    // Nothing that was accepted is lost: every step's figures stay, beside the machine's.
    assertThat(w.stepMetrics().count()).isEqualTo(rowsBefore + 12 + 5);
    Map<String, String> rejects = new TreeMap<>();
    for (Row r : w.rejects().collectAsList()) {
      assertThat(r.<String>getAs("run_id")).isEqualTo(runId);
      rejects.put(Path.of(r.<String>getAs("source_file")).getFileName() + ":" + r.<Long>getAs("line_no"),
          r.<String>getAs("error_type") + " " + r.<String>getAs("column") + " " + r.<String>getAs("reason"));
    }
    assertThat(rejects).hasSize(4 + 1 + 2 + 2)
        .containsEntry("sb.met.random-points.range10.pk1.dop1:3", "number_format r/s r/s '12.5x' is not a number")
        .containsEntry("sb.met.random-points.range10.pk1.dop1:6", "out_of_range cpu/o cpu/o 'NaN' is not a finite number")
        .containsEntry("sb.met.update-index.range100.pk1.dop1:3",
            "out_of_range w/s w/s '-3.0' is negative: an average of counters never is")
        .containsEntry("sb.met.update-index.range100.pk1.dop1:6",
            "field_count null 3 fields, but its header has 5 (samp cs/s cpu/s cs/o cpu/o)")
        .containsEntry("sb.met.point-query.pre.range100.pk1.dop2:1", "header null not an.sh's resource summary: its"
            + " first line is not 'iostat, vmstat normalized by operation rate'");
    Row run = w.runs().first();
    assertThat(run.<Long>getAs("lines_rejected")).isEqualTo(9L);
    assertThat(run.getList(run.fieldIndex("source_files"))).hasSize(6 + 6);
  }

  /**
   * A folder with run.sh's raw captures and no sb.met ({@code fixtures/mytools-raw}, real vmstat and
   * iostat): each step gets an.sh's figures derived from its {@code sb.vm} and {@code sb.io}, a step's
   * sb.met wins over its captures, and a hostile row is a reject with its file and line that keeps the
   * figures of the rows beside it.
   */
  @Test
  void rawCapturesGiveTheStepsWithoutAnSbMetTheirMachineFiguresAndAHostileRowIsAReject() throws IOException {
    Path raw;
    try (Stream<Path> dirs = Files.list(fixture("mytools-raw"))) {
      raw = dirs.filter(Files::isDirectory).findFirst().orElseThrow();
    }
    Path copy = copyFolder(raw);
    Path vm = copy.resolve("sb.vm.update-index.range100.pk1.dop1");
    long vmLines = Files.readAllLines(vm).size();
    Files.writeString(vm, " 4  0      0 1726\n", java.nio.file.StandardOpenOption.APPEND);
    Path met = copy.resolve("sb.met.read-only.range10.pk1.dop1");
    Files.writeString(met, "iostat, vmstat normalized by operation rate\nsamp\tcs/s\tcpu/s\tcs/o\tcpu/o\n"
        + "10\t100\t50.0\t2.000\t0.000449\n");

    CommandRun run = ingest(tmp.resolve("warehouse"), copy.toString());
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    // A file's accepted lines count its metadata: all but the appended row of the vmstat capture.
    assertThat(run.stderr()).contains(vm + ": accepted " + vmLines + ", rejected 1", met + ": accepted 3, rejected 0",
        copy.resolve("sb.io.read-only.range10.pk1.dop1") + ": not a result (iostat capture; the step's sb.met, an.sh's"
            + " summary of it as published, is read instead), not read");
    Warehouse w = warehouse();
    Map<String, Integer> figuresPerStep = new TreeMap<>();
    for (Row r : w.stepMetrics().where(col("metric").startsWith("machine_")).collectAsList()) {
      figuresPerStep.merge(r.<String>getAs("step"), 1, Integer::sum);
      assertThat(r.<Double>getAs("value")).as(r.toString()).isFinite().isNotNegative();
    }
    // Six steps: five from their captures (7 I/O and 5 CPU figures each), read-only from its sb.met's vmstat half.
    assertThat(figuresPerStep).hasSize(6).containsEntry("read-only_range=10", 5)
        .containsEntry("update-index_range=100", 12).containsEntry("point-query_range=100", 12);
    assertThat(w.stepMetrics().where(col("metric").equalTo("machine_cs_per_op")
        .and(col("step").equalTo("read-only_range=10"))).first().<Double>getAs("value")).isEqualTo(2.0);
    assertThat(w.rejects().collectAsList()).singleElement().satisfies(r -> {
      assertThat(r.<String>getAs("source_file")).isEqualTo(vm.toString());
      assertThat(r.<Long>getAs("line_no")).isEqualTo(vmLines + 1);
      assertThat(r.<String>getAs("error_type")).isEqualTo("field_count");
      assertThat(r.<String>getAs("reason")).isEqualTo("4 fields, but vmstat's header has 17");
    });
  }

  private Path copyFolder(Path source) throws IOException {
    Path copy = tmp.resolve("tree").resolve(source.getFileName().toString());
    Files.createDirectories(copy);
    try (Stream<Path> files = Files.list(source)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    return copy;
  }

  private static List<Path> files(Path root, String prefix) throws IOException {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile).filter(p -> p.getFileName().toString().startsWith(prefix)).sorted().toList();
    }
  }
}
