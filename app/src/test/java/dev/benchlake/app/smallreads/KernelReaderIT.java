package dev.benchlake.app.smallreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RejectsCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code runs}, {@code export} (of every table but tasks) and {@code rejects} print the same
 * bytes whether they read with Delta Kernel (the default: no Spark session) or with Spark (what
 * any {@code --conf} asks for), on a warehouse of this build and on a copy of the frozen 0.1.0
 * warehouse (format 1: its missing columns read as null on both paths, its missing ingest_files
 * table as empty).
 */
@Tag("integration")
class KernelReaderIT extends SparkTestBase {
  /** Any Spark setting sends a command to the Spark path; this one changes no result. */
  static final String[] ON_SPARK = {"--conf", "spark.sql.shuffle.partitions=3"};
  static final Path FIXTURE = Path.of(System.getProperty("benchlake.app.dir", "target")).toAbsolutePath().getParent()
      .resolve("src/test/compat/0.1.0/warehouse");

  @TempDir
  Path tmp;

  @Test
  void aWarehouseOfThisBuildReadsTheSameWithoutSpark() throws IOException {
    Path wh = tmp.resolve("wh");
    Path a = Files.createDirectories(tmp.resolve("a"));
    Path b = Files.createDirectories(tmp.resolve("b"));
    Files.writeString(a.resolve("oltp_point_select.txt"), fixture("oltp_point_select.txt"));
    Files.writeString(a.resolve("oltp_read_write.txt"), fixture("oltp_read_write.txt"));
    Files.writeString(b.resolve("oltp_point_select.txt"), fixture("oltp_point_select.txt") + "\n");
    // TestPostgresqlPerf details with two bad lines (after the head that format detection reads):
    // rejects with types and columns, and ingest_files rows.
    String app = "c69da9f9-1e8c-448b-9ed2-aa0f352afba2";
    StringBuilder details = new StringBuilder();
    for (int i = 0; i < 30; i++) {
      details.append(app).append("\t24\t").append(7_600_000 + i).append("\t03:47:").append(10 + i).append('\n');
    }
    details.append(app).append("\t24\tnot-a-number\t03:47:08\n").append(app).append(",\"quoted, with a comma\"\n")
        .append(app).append("\t23\t-1\t00:00:00\n");
    Files.writeString(b.resolve("details." + app + ".txt"), details);
    ingest(wh, a, "--label", "db_major=14", "--label", "note=ascii");
    ingest(wh, b, "--label", "db_major=15", "--label", "note=\u00e9\uD83D\uDE00,\"q\"", "--label", "only_b=yes");
    assertSameBothWays(wh, List.of("db_major=15", "only_b!=yes", "note=ascii,db_major=14"));
  }

  @Test
  void theFrozen010WarehouseReadsTheSameWithoutSpark() throws IOException {
    Path wh = copy(FIXTURE, tmp.resolve("wh010"));
    // A timestamp compares as Spark casts it to text (UTC, microseconds): one run has this start.
    String started = "started_at=2026-11-29 20:48:46.199983";
    assertThat(run("runs", "--warehouse", wh.toString(), "--where", started, "--json").out().lines()).hasSize(1);
    assertSameBothWays(wh, List.of(started, "db_major=17", "campaign!=compat"));
  }

  @Test
  void noWarehouseIsTheSameClearErrorOnBothPaths() {
    String missing = tmp.resolve("nothing-here").toString();
    Cli kernel = run(new RunsCommand(), "--warehouse", missing);
    Cli spark = run(new RunsCommand(), with("--warehouse", missing));
    assertThat(kernel.exitCode()).isEqualTo(2).isEqualTo(spark.exitCode());
    assertThat(kernel.err()).contains("no warehouse at").isEqualTo(spark.err());
  }

  private void assertSameBothWays(Path wh, List<String> selectors) {
    String w = wh.toString();
    List<String[]> commands = new ArrayList<>();
    commands.add(new String[] {"runs", "--warehouse", w});
    for (String where : selectors) {
      commands.add(new String[] {"runs", "--warehouse", w, "--where", where, "--json"});
    }
    String where = selectors.get(selectors.size() - 1);
    commands.add(new String[] {"export", "--warehouse", w, "--table", "runs", "--where", where, "--out", "-"});
    // CSV where the table has labels (one column per key) and quoting matters, JSON Lines elsewhere:
    // both formats render from the same rows, which is what the two paths must agree on.
    commands.add(new String[] {"export", "--warehouse", w, "--table", "runs", "--format", "jsonl", "--out", "-"});
    commands.add(new String[] {"export", "--warehouse", w, "--table", "rejects", "--out", "-"});
    commands.add(new String[] {"export", "--warehouse", w, "--table", "step_metrics", "--format", "jsonl", "--out", "-"});
    commands.add(new String[] {"export", "--warehouse", w, "--table", "ingest_files", "--format", "jsonl", "--out", "-"});
    commands.add(new String[] {"export", "--warehouse", w, "--table", "step_metrics", "--step", "oltp_read_write",
        "--columns", "metric,value,run_id", "--out", "-"});
    commands.add(new String[] {"rejects", "--warehouse", w});
    commands.add(new String[] {"rejects", "--warehouse", w, "--json"});
    for (String[] command : commands) {
      Cli kernel = run(command);
      Cli spark = run(with(command));
      String what = String.join(" ", command);
      assertThat(kernel.exitCode()).as(what + ": " + kernel.err()).isZero();
      assertThat(spark.exitCode()).as(what + ": " + spark.err()).isZero();
      assertThat(kernel.out()).as(what).isEqualTo(spark.out());
    }
  }

  private void ingest(Path wh, Path folder, String... labels) {
    List<String> args = new ArrayList<>(List.of("--warehouse", wh.toString()));
    args.addAll(List.of(labels));
    args.add(folder.toString());
    Cli ingest = run(new IngestCommand(), args.toArray(String[]::new));
    assertThat(ingest.exitCode()).as(ingest.err()).isZero();
  }

  private static String[] with(String... args) {
    String[] out = new String[args.length + ON_SPARK.length];
    System.arraycopy(args, 0, out, 0, args.length);
    System.arraycopy(ON_SPARK, 0, out, args.length, ON_SPARK.length);
    return out;
  }

  record Cli(int exitCode, String out, String err) {}

  /** {@code runs}, {@code export} or {@code rejects} by name; export's {@code --out -} is captured as UTF-8 bytes. */
  private static Cli run(String... command) {
    String[] args = java.util.Arrays.copyOfRange(command, 1, command.length);
    if (command[0].equals("export")) {
      ByteArrayOutputStream stdout = new ByteArrayOutputStream();
      Cli cli = run(new ExportCommand(stdout), args);
      return new Cli(cli.exitCode(), stdout.toString(StandardCharsets.UTF_8), cli.err());
    }
    return run(command[0].equals("runs") ? new RunsCommand() : new RejectsCommand(), args);
  }

  private static Cli run(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = dev.benchlake.core.cli.Cli.commandLine(command);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new Cli(code, out.toString(), err.toString());
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = KernelReaderIT.class.getResourceAsStream("/dev/benchlake/ingest/fixtures/" + name)) {
      assertThat(in).as("ingest fixture " + name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private static Path copy(Path from, Path to) throws IOException {
    try (Stream<Path> walk = Files.walk(from)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
    return to;
  }
}
