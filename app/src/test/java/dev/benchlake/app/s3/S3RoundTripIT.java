package dev.benchlake.app.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.analysis.cli.TrendCommand;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.fs.S3PutIfAbsentLogStore;
import dev.benchlake.warehouse.spark.SparkTestBase;
import io.delta.storage.S3SingleDriverLogStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * The warehouse on a real S3-compatible server ({@link S3ProxyServer}: S3Proxy, a child JVM, AWS
 * signatures checked), through Hadoop's s3a and the AWS SDK, as a user's would be on S3:
 * <ul>
 *   <li>the chain (ingest of loadgen run folders and a sysbench output, both read from
 *       {@code s3a://}; {@code runs} with Delta Kernel and with Spark; {@code export}; {@code compare};
 *       {@code trend}) gives byte for byte what it gives on a local folder, and no output holds the
 *       secret key;
 *   <li>an ingest process killed ({@code kill -9}) after its tasks' commit, before its runs' commit,
 *       leaves no partial run, and the same ingest again lands the run once;
 *   <li>Delta's own S3 log store ({@code S3SingleDriverLogStore}) lets two processes both commit
 *       one version of a table, the second overwriting the first: a lost commit; benchlake's
 *       ({@link S3PutIfAbsentLogStore}: {@code If-None-Match: *}) gives each version to one;
 *   <li>two ingest processes of different inputs into one new warehouse, at once: both land.
 * </ul>
 *
 * <p>In-process commands run on the shared Spark session, the server's settings and credentials set
 * on its Hadoop configuration (for this bucket only); child processes get the settings as
 * {@code spark.hadoop.*} and the credentials as {@code AWS_ACCESS_KEY_ID}/{@code
 * AWS_SECRET_ACCESS_KEY}, as a user would give them. {@code runs} and {@code export} without
 * {@code --conf} read with Delta Kernel on a fresh Hadoop configuration, which reaches this server
 * through the JVM's s3a file system that Spark opened (Hadoop caches one per bucket).
 */
@Tag("integration")
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class S3RoundTripIT extends SparkTestBase {
  private static final String FIXTURES = "/dev/benchlake/ingest/fixtures/";
  private static final String SYSBENCH = "oltp_point_select.txt";
  private static final int TASKS_PER_RUN = 240;
  private static final int RACE_VERSIONS = 10;

  @TempDir
  static Path tmp;
  static S3ProxyServer s3;
  static Path localInputs;
  /** Every stdout and stderr of every command and process, searched for the credentials at the end. */
  static final List<String> OUTPUTS = new ArrayList<>();

  @BeforeAll
  static void startS3AndUploadInputs() throws Exception {
    s3 = S3ProxyServer.start(Files.createDirectories(tmp.resolve("s3")));
    Configuration hadoop = spark.sparkContext().hadoopConfiguration();
    s3.hadoopSettings().forEach(hadoop::set);
    hadoop.set("fs.s3a.bucket." + S3ProxyServer.BUCKET + ".access.key", s3.accessKey());
    hadoop.set("fs.s3a.bucket." + S3ProxyServer.BUCKET + ".secret.key", s3.secretKey());
    localInputs = tmp.resolve("local/inputs");
    loadgenRun(localInputs.resolve("pg14/run-1"), "s3-run-1", 14, 1.00, 1);
    loadgenRun(localInputs.resolve("pg14/run-2"), "s3-run-2", 14, 1.02, 2);
    loadgenRun(localInputs.resolve("pg16/run-3"), "s3-run-3", 16, 0.80, 3);
    loadgenRun(localInputs.resolve("pg16/run-4"), "s3-run-4", 16, 0.83, 4);
    Files.createDirectories(localInputs.resolve("sysbench"));
    Files.write(localInputs.resolve("sysbench").resolve(SYSBENCH), fixture(SYSBENCH));
    Path later = tmp.resolve("local/later");
    loadgenRun(later.resolve("killed"), "s3-run-killed", 16, 0.9, 5);
    loadgenRun(later.resolve("racer-a"), "s3-run-racer-a", 14, 1.0, 6);
    loadgenRun(later.resolve("racer-b"), "s3-run-racer-b", 16, 0.8, 7);
    FileSystem fs = FileSystem.get(URI.create(s3.uri("")), hadoop);
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(localInputs.toUri()),
        new org.apache.hadoop.fs.Path(s3.uri("inputs")));
    fs.copyFromLocalFile(false, true, new org.apache.hadoop.fs.Path(later.toUri()),
        new org.apache.hadoop.fs.Path(s3.uri("later")));
  }

  @AfterAll
  static void stopS3() throws InterruptedException {
    if (s3 != null) {
      s3.close();
    }
  }

  @Test
  @Order(1)
  void theChainOnS3GivesWhatItGivesOnALocalFolder() throws IOException {
    String s3Warehouse = s3.uri("warehouse");
    String localWarehouse = tmp.resolve("local/warehouse").toString();
    Chain onS3 = chain(s3.uri("inputs"), s3Warehouse, tmp.resolve("report-s3"));
    Chain onLocal = chain(localInputs.toString(), localWarehouse, tmp.resolve("report-local"));

    assertThat(onS3.runIds()).as("4 loadgen runs and a sysbench run").hasSize(5).isEqualTo(onLocal.runIds());
    assertThat(onS3.ingestErr()).contains(s3.uri("inputs/sysbench/" + SYSBENCH) + ": sysbench");
    assertThat(onS3.tasks()).isEqualTo(onLocal.tasks());
    assertThat(onS3.tasks().lines().count()).as("every task line").isEqualTo(4L * TASKS_PER_RUN);
    assertThat(onS3.stepMetrics()).isEqualTo(onLocal.stepMetrics()).contains("\"qps\"");
    // Source paths are stored as given: the s3a URIs there, the local paths here.
    assertThat(onS3.runs().replace(s3.uri("inputs"), "IN")).isEqualTo(onLocal.runs().replace(localInputs.toString(), "IN"))
        .contains("s3-run-4");
    assertThat(onS3.files()).contains("\"" + s3.uri("inputs/pg14/run-1/tasks.csv") + "\"");
    assertThat(onS3.files().replace(s3.uri("inputs"), "IN")).isEqualTo(onLocal.files().replace(localInputs.toString(), "IN"));
    assertThat(onS3.report().replace(s3Warehouse, "WH")).isEqualTo(onLocal.report().replace(localWarehouse, "WH"))
        .contains("point-select");
    assertThat(onS3.trend().replace(s3Warehouse, "WH")).isEqualTo(onLocal.trend().replace(localWarehouse, "WH"))
        .contains("point-select");
    // Delta Kernel (no --conf) and Spark read the same runs on S3.
    CommandRun onSpark = run(new RunsCommand(), "--warehouse", s3Warehouse, "--json", "--conf", "spark.sql.shuffle.partitions=2");
    assertThat(normalised(onSpark.stdout())).isEqualTo(normalised(onS3.runsJson()));
  }

  @Test
  @Order(2)
  void anIngestKilledBetweenItsCommitsOnS3LeavesNoPartialRunAndARerunLandsItOnce() throws Exception {
    String warehouse = s3.uri("warehouse"); // the chain's (test 1): whole runs to keep whole

    String runsBefore = export(warehouse, "runs", "--format", "jsonl");
    String tasksBefore = export(warehouse, "tasks", "--format", "jsonl");
    ChildProcess killed = ChildProcess.start(tmp, s3, S3IngestProcess.class, "after:tasks", warehouse, s3.uri("later/killed"));
    killed.awaitLine("AT after:tasks", 240);
    killed.kill();
    OUTPUTS.add(killed.output());
    // It died holding the S3 locks of its content and run: their last epochs are not freed.
    assertThat(unfreedLocks(warehouse)).hasSize(2);
    // Its tasks are committed to the tasks table, its runs row is not: readers show none of it.
    assertThat(export(warehouse, "runs", "--format", "jsonl")).isEqualTo(runsBefore).doesNotContain("s3-run-killed");
    assertThat(export(warehouse, "tasks", "--format", "jsonl")).isEqualTo(tasksBefore);
    assertThat(run(new RunsCommand(), "--warehouse", warehouse).stdout()).doesNotContain("s3-run-killed");

    // The same ingest again waits out the dead holder's lease (4 s here), takes the locks over,
    // removes the rows the killed one committed before its commit point, and lands the run.
    long start = System.nanoTime();
    CommandRun again = run(new IngestCommand(), "--warehouse", warehouse, s3.uri("later/killed"));
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(java.time.Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(java.time.Duration.ofSeconds(4));
    assertThat(unfreedLocks(warehouse)).isEmpty();
    String tasksAfter = export(warehouse, "tasks", "--format", "jsonl");
    assertThat(tasksAfter.lines().filter(l -> l.contains("\"s3-run-killed\"")).count()).isEqualTo(TASKS_PER_RUN);
    assertThat(tasksAfter.lines().count()).isEqualTo(tasksBefore.lines().count() + TASKS_PER_RUN);
    assertThat(export(warehouse, "runs", "--format", "jsonl").lines().filter(l -> l.contains("\"s3-run-killed\"")).count())
        .isEqualTo(1);
  }

  /**
   * The finding behind {@link S3PutIfAbsentLogStore}, and its cure. Two processes, each with a
   * Delta log store as a Spark driver holds one, write the same 10 versions of one log at the same
   * instants: with Delta's own S3 log store both are told "committed" for some version, and one of
   * the two commits is gone; with the log store benchlake's Spark sessions commit s3a:// with
   * (read from this JVM's session, so that without benchlake's setting it is Delta's again),
   * each version goes to exactly one, and holds that one's commit.
   */
  @Test
  @Order(3)
  void deltasS3LogStoreLosesACommitToASecondProcessAndBenchlakesDoesNot() throws Exception {
    String benchlakes = spark.sparkContext().getConf().get("spark.delta.logStore.s3a.impl",
        S3SingleDriverLogStore.class.getName());
    Map<String, Map<Integer, List<String>>> races = race(Map.of(
        "race-delta", S3SingleDriverLogStore.class.getName(),
        "race-benchlake", benchlakes));
    System.out.println("races (version → processes told committed): " + races);
    assertThat(races.get("race-delta").values()).as("Delta's S3 log store: some version that both processes were told they"
        + " committed, of which one commit is lost").anySatisfy(winners -> assertThat(winners).hasSize(2));

    Map<Integer, List<String>> benchlake = races.get("race-benchlake");
    assertThat(benchlake).hasSize(RACE_VERSIONS);
    FileSystem fs = FileSystem.get(URI.create(s3.uri("")), spark.sparkContext().hadoopConfiguration());
    benchlake.forEach((version, winners) -> {
      assertThat(winners).as(benchlakes + ": version " + version + " committed by exactly one process").hasSize(1);
      String stored = read(fs, String.format(java.util.Locale.ROOT, "%s/%020d.json", s3.uri("race-benchlake"), version));
      assertThat(stored).as("version " + version + " holds its one writer's commit").contains("\"" + winners.get(0) + "\"");
    });
  }

  /**
   * Ingests into one new warehouse at once, in two processes: a child ingests run a; this JVM,
   * once the child has its Spark session, ingests run b, and run a again beside it. a and b create
   * the tables (version 0 of each log) and append at once, and both land; a lands once and whole
   * (the S3 lock of its content keeps its two ingests apart: one adds it, the other waits for the
   * lock, then finds it there).
   */
  @Test
  @Order(4)
  void twoIngestProcessesIntoOneNewWarehouseAtOnceBothLand() throws Exception {
    String warehouse = s3.uri("race-warehouse");
    ChildProcess child = ChildProcess.start(tmp, s3, S3IngestProcess.class, "none", warehouse, s3.uri("later/racer-a"));
    child.awaitLine("SPARK UP", 240);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
    try {
      java.util.concurrent.Future<CommandRun> b = pool.submit(() -> run(new IngestCommand(), "--warehouse", warehouse,
          s3.uri("later/racer-b")));
      java.util.concurrent.Future<CommandRun> aAgain = pool.submit(() -> run(new IngestCommand(), "--warehouse", warehouse,
          s3.uri("later/racer-a")));
      assertThat(child.await(300)).as(child.output()).isZero();
      OUTPUTS.add(child.output());
      for (CommandRun here : List.of(b.get(300, TimeUnit.SECONDS), aAgain.get(300, TimeUnit.SECONDS))) {
        assertThat(here.exitCode()).as(here.stderr()).isZero();
      }
      assertThat(b.get().stderr()).contains("run s3-run-racer-b (loadgen): added, " + TASKS_PER_RUN);
      assertThat(child.output() + aAgain.get().stderr())
          .containsOnlyOnce("run s3-run-racer-a (loadgen): added, " + TASKS_PER_RUN).containsOnlyOnce("already ingested");
    } finally {
      pool.shutdownNow();
    }
    String runs = export(warehouse, "runs", "--format", "jsonl");
    assertThat(runs.lines()).hasSize(2).anySatisfy(l -> assertThat(l).contains("\"s3-run-racer-a\""))
        .anySatisfy(l -> assertThat(l).contains("\"s3-run-racer-b\""));
    String tasks = export(warehouse, "tasks", "--format", "jsonl");
    assertThat(tasks.lines().filter(l -> l.contains("\"s3-run-racer-a\"")).count()).isEqualTo(TASKS_PER_RUN);
    assertThat(tasks.lines().filter(l -> l.contains("\"s3-run-racer-b\"")).count()).isEqualTo(TASKS_PER_RUN);
  }

  @Test
  @Order(5)
  void noOutputHoldsTheCredentials() {
    assertThat(OUTPUTS).hasSizeGreaterThan(20).allSatisfy(output -> assertThat(output)
        .doesNotContain(s3.secretKey()).doesNotContain(s3.accessKey()));
  }

  /**
   * Two {@link LogStoreRace} processes per log (folder → log store class), all started together
   * once all are warmed up: folder → version → the names of the processes told "committed".
   */
  private static Map<String, Map<Integer, List<String>>> race(Map<String, String> stores) throws Exception {
    Path go = tmp.resolve("race-go");
    Map<String, ChildProcess> racers = new TreeMap<>();
    for (Map.Entry<String, String> store : stores.entrySet()) {
      for (String name : List.of("first", "second")) {
        racers.put(store.getKey() + " " + name, ChildProcess.start(tmp, s3, LogStoreRace.class, store.getValue(),
            s3.uri(store.getKey()), go.toString(), Integer.toString(RACE_VERSIONS), "200", name));
      }
    }
    for (ChildProcess racer : racers.values()) {
      racer.awaitLine("READY", 120);
    }
    Files.writeString(go, Long.toString(System.currentTimeMillis() + 300));
    Map<String, Map<Integer, List<String>>> winners = new TreeMap<>();
    for (Map.Entry<String, ChildProcess> racer : racers.entrySet()) {
      assertThat(racer.getValue().await(120)).as(racer.getValue().output()).isZero();
      OUTPUTS.add(racer.getValue().output());
      String[] dirAndName = racer.getKey().split(" ");
      Map<Integer, List<String>> versions = winners.computeIfAbsent(dirAndName[0], d -> new TreeMap<>());
      racer.getValue().output().lines().filter(l -> l.matches("\\d+ (OK|EXISTS)")).forEach(line -> {
        String[] parts = line.split(" ");
        List<String> list = versions.computeIfAbsent(Integer.parseInt(parts[0]), v -> new ArrayList<>());
        if (parts[1].equals("OK")) {
          list.add(dirAndName[1]);
        }
      });
    }
    return winners;
  }

  /** What one chain printed and wrote. */
  record Chain(List<String> runIds, String ingestErr, String runsJson, String runs, String tasks, String stepMetrics,
      String files, String report, String trend) {}

  private static Chain chain(String inputs, String warehouse, Path out) throws IOException {
    CommandRun ingest = run(new IngestCommand(), "--warehouse", warehouse, inputs);
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    CommandRun runsJson = run(new RunsCommand(), "--warehouse", warehouse, "--json");
    assertThat(runsJson.exitCode()).as(runsJson.stderr()).isZero();
    String runs = export(warehouse, "runs", "--columns",
        "run_id,source_format,source_key,source_files,labels,status,started_at,finished_at,tasks_accepted,step_metrics_rows,"
            + "lines_rejected");
    String tasks = export(warehouse, "tasks", "--format", "jsonl");
    String stepMetrics = export(warehouse, "step_metrics", "--format", "jsonl");
    String files = export(warehouse, "ingest_files", "--format", "jsonl");
    CommandRun compare = run(new CompareCommand(), "--warehouse", warehouse, "--baseline", "db_major=14",
        "--candidate", "db_major=16", "--out", out.resolve("compare").toString());
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();
    CommandRun trend = run(new TrendCommand(), "--warehouse", warehouse, "--by", "db_major", "--base", "14",
        "--where", "source_format=loadgen", "--out", out.resolve("trend").toString());
    assertThat(trend.exitCode()).as(trend.stderr()).isZero();
    String report = Files.readString(out.resolve("compare/report.json"));
    String trendJson = Files.readString(out.resolve("trend/trend.json"));
    OUTPUTS.add(report + Files.readString(out.resolve("compare/report.md")) + trendJson);
    return new Chain(ingest.stdout().lines().sorted().toList(), ingest.stderr(), runsJson.stdout(), runs, tasks,
        stepMetrics, files, report, trendJson);
  }

  private static CommandRun run(Object command, String... args) {
    CommandRun run = CommandRun.of(command, args);
    OUTPUTS.add(run.stdout() + run.stderr());
    return run;
  }

  private static String export(String warehouse, String table, String... args) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse, "--table", table, "--out", "-"));
    all.addAll(List.of(args));
    CommandRun cli = run(new ExportCommand(stdout), all.toArray(String[]::new));
    assertThat(cli.exitCode()).as(table + ": " + cli.stderr()).isZero();
    String out = stdout.toString(StandardCharsets.UTF_8);
    OUTPUTS.add(out);
    return out;
  }

  /** The S3 lock folders ({@code _locks/<hash>/}) of a warehouse whose last epoch is not freed: held, or left by a dead holder. */
  private static List<String> unfreedLocks(String warehouse) throws IOException {
    FileSystem fs = FileSystem.get(URI.create(warehouse), spark.sparkContext().hadoopConfiguration());
    List<String> unfreed = new ArrayList<>();
    for (org.apache.hadoop.fs.FileStatus folder : fs.listStatus(new org.apache.hadoop.fs.Path(warehouse + "/_locks"))) {
      List<String> names = java.util.Arrays.stream(fs.listStatus(folder.getPath())).map(f -> f.getPath().getName()).sorted()
          .toList();
      String last = names.stream().filter(n -> n.matches("\\d{20}")).reduce((a, b) -> b).orElseThrow();
      if (!names.contains(last + ".free")) {
        unfreed.add(folder.getPath().getName() + "/" + last);
      }
    }
    return unfreed;
  }

  /** runs --json without the ingest times (each ingest has its own). */
  private static String normalised(String runsJson) {
    return runsJson.replaceAll("\"ingested_at\"\\s*:\\s*\"[^\"]*\"", "\"ingested_at\":\"\"");
  }

  private static String read(FileSystem fs, String uri) {
    try (InputStream in = fs.open(new org.apache.hadoop.fs.Path(uri))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * A loadgen run folder (core's contract classes): one step, {@link #TASKS_PER_RUN} tasks whose
   * latencies scatter around {@code scale} ms (seeded), db_major from the target.
   */
  private static void loadgenRun(Path dir, String runId, int major, double scale, long seed) throws IOException {
    Files.createDirectories(dir);
    new RunManifest(RunManifest.FORMAT_VERSION, runId, new RunManifest.Tool("benchlake-loadgen", "test"),
        "2026-03-0" + seed + "T10:00:00Z", "2026-03-0" + seed + "T10:01:00Z", 1_700_000_000_000_000_000L, RunStatus.COMPLETE,
        null, new RunManifest.Workload("select-update", List.of("point-select"), new TreeMap<>(Map.of("scale", 1))),
        new RunManifest.Mode("closed", 4, (long) TASKS_PER_RUN, null, null, null, null, null),
        new RunManifest.Target("jdbc:postgresql://127.0.0.1:5432/postgres", true, "PostgreSQL " + major + ".4", major,
            new TreeMap<>()),
        new RunManifest.Client("bench-host", "Linux", "6.1", "amd64", 2, null, "17"),
        new TreeMap<>(Map.of("os", "linux")), null)
        .writeAtomically(RunDirectory.manifest(dir));
    Random random = new Random(seed);
    StringBuilder csv = new StringBuilder(TaskCsv.HEADER).append('\n');
    for (int i = 0; i < TASKS_PER_RUN; i++) {
      long intended = i * 250_000L;
      long latency = (long) (scale * 1_000_000 * Math.exp(0.3 * random.nextGaussian()));
      boolean ok = i % 40 != 39;
      TaskCsv.appendLine(new TaskRecord("point-select", i % 4, i / 4, intended, intended + 1_000, intended + latency, 0,
          false, ok, ok ? "" : "40001", ok ? "" : "could not serialize access"), csv);
    }
    Files.writeString(RunDirectory.tasks(dir), csv, StandardCharsets.UTF_8);
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = S3RoundTripIT.class.getResourceAsStream(FIXTURES + name)) {
      assertThat(in).as("ingest fixture " + name).isNotNull();
      return in.readAllBytes();
    }
  }

  /** A child JVM on this test's class path, the server's settings as system properties, its credentials in the environment. */
  static final class ChildProcess {
    private final Process process;
    private final Path log;

    private ChildProcess(Process process, Path log) {
      this.process = process;
      this.log = log;
    }

    static ChildProcess start(Path dir, S3ProxyServer s3, Class<?> main, String... args) throws IOException {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
      for (String arg : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
        if (arg.startsWith("--add-opens") || arg.startsWith("-XX:+IgnoreUnrecognizedVMOptions") || arg.startsWith("-D")
            && (arg.startsWith("-Dfile.encoding") || arg.startsWith("-Djdk.reflect") || arg.startsWith("-Dio.netty"))) {
          command.add(arg);
        }
      }
      command.addAll(List.of("-Xmx1g", "-XX:TieredStopAtLevel=1"));
      s3.hadoopSettings().forEach((k, v) -> command.add("-Dspark.hadoop." + k + "=" + v));
      command.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
      command.addAll(List.of(args));
      Path log = Files.createTempFile(dir, main.getSimpleName() + "-", ".log");
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      Map<String, String> env = new HashMap<>(s3.credentialEnv());
      pb.environment().putAll(env);
      return new ChildProcess(pb.start(), log);
    }

    String output() {
      try {
        return Files.readString(log, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    }

    void awaitLine(String line, int seconds) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline) {
        if (output().lines().anyMatch(line::equals)) {
          return;
        }
        if (!process.isAlive()) {
          throw new AssertionError("ended (" + process.exitValue() + ") before " + line + ":\n" + output());
        }
        Thread.sleep(200);
      }
      process.destroyForcibly();
      throw new AssertionError("no " + line + " in " + seconds + " s:\n" + output());
    }

    /** kill -9. */
    void kill() throws InterruptedException {
      process.destroyForcibly();
      process.waitFor(30, TimeUnit.SECONDS);
    }

    int await(int seconds) throws InterruptedException {
      if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("still running after " + seconds + " s:\n" + output());
      }
      return process.exitValue();
    }
  }
}
