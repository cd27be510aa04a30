package dev.benchlake.app.smallreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code runs}, {@code export} (of every table but tasks) and {@code rejects} print the same
 * bytes whether they read with Delta Kernel (the default: no Spark session) or with Spark (what
 * any {@code --conf} asks for): on a warehouse of this build, and on copies of the frozen 0.1.0
 * (format 1: its missing columns read as null on both paths, its missing ingest_files table as
 * empty) and 0.2.0 (format 2) warehouses.
 *
 * <p>Lean by design (CI budget): one warehouse of this build from ONE ingest of three small
 * sources, the fixtures copied once, Spark's session shared; each case is one command run both
 * ways in-process ({@link #commands} says why each case is there, and none proves another's
 * point again).
 */
@Tag("integration")
class KernelReaderIT extends SparkTestBase {
  /** Any Spark setting sends a command to the Spark path; this one changes no result. */
  static final String[] ON_SPARK = {"--conf", "spark.sql.shuffle.partitions=3"};
  static final Path COMPAT = CompatFixtures.COMPAT;
  /** A timestamp compares as Spark casts it to text (UTC, microseconds): one fixture run has this start. */
  static final String STARTED = "started_at=2026-11-29 20:48:46.199983";
  static final String BUILT = "this build";

  @TempDir
  static Path tmp;
  static final Map<String, Path> WAREHOUSES = new HashMap<>();

  @BeforeAll
  static void warehouses() throws IOException {
    Path wh = tmp.resolve("wh");
    Path sources = Files.createDirectories(tmp.resolve("sources"));
    Files.writeString(sources.resolve("oltp_point_select.txt"), fixture("oltp_point_select.txt"));
    Files.writeString(sources.resolve("oltp_read_write.txt"), fixture("oltp_read_write.txt"));
    // TestPostgresqlPerf details with bad lines (after the head that format detection reads):
    // rejects with types and columns, and ingest_files rows.
    String app = "c69da9f9-1e8c-448b-9ed2-aa0f352afba2";
    StringBuilder details = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      details.append(app).append("\t24\t").append(7_600_000 + i).append("\t03:47:").append(10 + i).append('\n');
    }
    details.append(app).append("\t24\tnot-a-number\t03:47:08\n").append(app).append(",\"quoted, with a comma\"\n")
        .append(app).append("\t23\t-1\t00:00:00\n");
    Files.writeString(sources.resolve("details." + app + ".txt"), details);
    // A label that CSV must quote, with non-ASCII text.
    CommandRun ingest = CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), "--label", "db_major=15",
        "--label", "note=\u00e9\uD83D\uDE00,\"q\"", sources.toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    WAREHOUSES.put(BUILT, wh);
    for (String version : List.of("0.1.0", "0.2.0")) {
      WAREHOUSES.put(version, CompatFixtures.copy(version, "warehouse", tmp.resolve("wh" + version)));
    }
    assertThat(run("runs", "--warehouse", WAREHOUSES.get("0.1.0").toString(), "--where", STARTED, "--json").stdout().lines())
        .as("the timestamp selector picks one fixture run").hasSize(1);
  }

  /**
   * Where the formats differ: format 1 (0.1.0) lacks columns of runs, rejects and step_metrics and
   * the ingest_files table; format 2 (0.2.0) lacks only step_metrics' health columns; this build's
   * warehouse has them all. Each other case once, where its data makes it meaningful.
   */
  static Stream<Arguments> commands() {
    List<Arguments> cases = new ArrayList<>();
    for (String table : List.of("runs", "rejects", "step_metrics", "ingest_files")) {
      cases.add(Arguments.of("0.1.0", jsonl(table)));
    }
    cases.add(Arguments.of("0.2.0", jsonl("step_metrics")));
    cases.add(Arguments.of(BUILT, jsonl("step_metrics")));
    cases.add(Arguments.of(BUILT, jsonl("ingest_files")));
    // CSV: labels one column per key, one of them quoted and non-ASCII.
    cases.add(Arguments.of(BUILT, List.of("export", "--table", "runs", "--out", "-")));
    cases.add(Arguments.of(BUILT, List.of("export", "--table", "rejects", "--out", "-")));
    cases.add(Arguments.of(BUILT, List.of("export", "--table", "step_metrics", "--step", "oltp_read_write",
        "--columns", "metric,value,run_id", "--out", "-")));
    cases.add(Arguments.of(BUILT, List.of("runs")));
    cases.add(Arguments.of(BUILT, List.of("rejects", "--json")));
    // Selectors: a timestamp, an inequality on a key some runs lack, a conjunction of equalities.
    cases.add(Arguments.of("0.1.0", List.of("runs", "--where", STARTED, "--json")));
    cases.add(Arguments.of("0.2.0", List.of("runs", "--where", "campaign!=compat", "--json")));
    cases.add(Arguments.of("0.2.0", List.of("export", "--table", "runs", "--where", "os=linux,db_major=15", "--out", "-")));
    return cases.stream();
  }

  private static List<String> jsonl(String table) {
    return List.of("export", "--table", table, "--format", "jsonl", "--out", "-");
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("commands")
  void readsTheSameWithoutSpark(String warehouse, List<String> args) {
    List<String> command = new ArrayList<>(args);
    command.addAll(1, List.of("--warehouse", WAREHOUSES.get(warehouse).toString()));
    String[] kernelArgs = command.toArray(String[]::new);
    CommandRun kernel = run(kernelArgs);
    CommandRun spark = run(with(kernelArgs));
    String what = String.join(" ", command);
    assertThat(kernel.exitCode()).as(what + ": " + kernel.stderr()).isZero();
    assertThat(spark.exitCode()).as(what + ": " + spark.stderr()).isZero();
    assertThat(kernel.stdout()).as(what).isEqualTo(spark.stdout());
    // Agreeing on nothing would prove nothing: every case has rows, but 0.1.0's missing table.
    if (!(warehouse.equals("0.1.0") && args.contains("ingest_files"))) {
      assertThat(kernel.stdout().lines().count()).as(what + " has rows").isGreaterThan(args.contains("jsonl")
          || args.contains("--json") || args.get(0).equals("runs") ? 0 : 1);
    }
  }

  /**
   * One command reads each table at one commit: {@code runs} is read two or three times (exists?,
   * its rows, the selection), and an ingest landing between those reads must not be half seen.
   */
  @Test
  void oneCommandReadsOneCommitOfRuns() throws IOException {
    Path wh = FileTrees.copy(WAREHOUSES.get(BUILT), tmp.resolve("one-commit"));
    int before = KernelWarehouse.at(wh.toString()).runs().size();
    KernelWarehouse reading = KernelWarehouse.at(wh.toString()).requireExisting();
    // Another transaction count makes it another source (ingest skips content it already has).
    Path newer = Files.writeString(tmp.resolve("newer-point-select.txt"),
        fixture("oltp_point_select.txt").replace("49695  (49507.72", "40001  (49507.72"));
    CommandRun ingest = CommandRun.of(new IngestCommand(), "--warehouse", wh.toString(), newer.toString());
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    assertThat(reading.runs()).as("the command that began before the ingest").hasSize(before);
    assertThat(KernelWarehouse.at(wh.toString()).runs()).as("a command after it").hasSize(before + 1);
  }

  @Test
  void noWarehouseIsTheSameClearErrorOnBothPaths() {
    String missing = tmp.resolve("nothing-here").toString();
    CommandRun kernel = CommandRun.of(new RunsCommand(), "--warehouse", missing);
    CommandRun spark = CommandRun.of(new RunsCommand(), with("--warehouse", missing));
    assertThat(kernel.exitCode()).isEqualTo(2).isEqualTo(spark.exitCode());
    assertThat(kernel.stderr()).contains("no warehouse at").isEqualTo(spark.stderr());
  }

  private static String[] with(String... args) {
    String[] out = new String[args.length + ON_SPARK.length];
    System.arraycopy(args, 0, out, 0, args.length);
    System.arraycopy(ON_SPARK, 0, out, args.length, ON_SPARK.length);
    return out;
  }

  /** {@code runs}, {@code export} or {@code rejects} by name; export's {@code --out -} is captured as UTF-8 bytes. */
  private static CommandRun run(String... command) {
    String[] args = java.util.Arrays.copyOfRange(command, 1, command.length);
    if (command[0].equals("export")) {
      return CommandRun.writingTo(ExportCommand::new, args);
    }
    return CommandRun.of(command[0].equals("runs") ? new RunsCommand() : new RejectsCommand(), args);
  }


  private static String fixture(String name) throws IOException {
    try (InputStream in = KernelReaderIT.class.getResourceAsStream("/dev/benchlake/ingest/fixtures/" + name)) {
      assertThat(in).as("ingest fixture " + name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
