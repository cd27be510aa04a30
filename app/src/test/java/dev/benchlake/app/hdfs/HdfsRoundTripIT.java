package dev.benchlake.app.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.cli.IngestCommand;
import dev.benchlake.warehouse.write.RunLocks;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same chain (ingest of a folder tree, runs, export, compare) on a real in-process HDFS
 * (Hadoop's MiniDFSCluster, one data node) and on the local file system gives the same results:
 * inputs read from {@code hdfs://} (a recursive folder walk, pgbench thread files grouped into one
 * run, labels from the paths), the warehouse written and read on {@code hdfs://} by Spark and
 * Delta, {@code runs} and {@code export runs} read there with Delta Kernel (and the same by Spark).
 * Also: {@code file:} URIs as input and as warehouse are the plain local paths; an unknown host and
 * a missing HDFS file are one clear line and exit 2.
 *
 * <p>Lean (CI budget): one cluster, one ingest per side, Spark's shared session; most of the time
 * is the cluster's start (~15 s) and Delta's first commits of each warehouse.
 */
@Tag("integration")
class HdfsRoundTripIT extends SparkTestBase {
  private static final String FIXTURES = "/dev/benchlake/ingest/fixtures/";
  /** Input tree: two groups (a: one pgbench run of two thread files; b: two pgbench runs and a sysbench output one level down). */
  private static final Map<String, String> TREE = Map.of(
      "a/pgbench_log.4242", "pgbench_log.4242",
      "a/pgbench_log.4242.1", "pgbench_log.4242.1",
      "b/pgbench_retries.4242", "pgbench_retries.4242",
      "b/pgbench_skipped.4242", "pgbench_skipped.4242",
      "b/sysbench/oltp_point_select.txt", "oltp_point_select.txt");
  private static final String LABELS = "/results/(?<side>[ab])/";

  @TempDir
  static Path tmp;
  static MiniDFSCluster cluster;
  static String hdfs;

  @BeforeAll
  static void startHdfs() throws IOException {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("dfs").toString());
    cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    cluster.waitActive();
    hdfs = cluster.getURI().toString();
    FileSystem fs = cluster.getFileSystem();
    Path local = tmp.resolve("local/results");
    for (Map.Entry<String, String> file : TREE.entrySet()) {
      byte[] content = fixture(file.getValue());
      try (OutputStream out = fs.create(new org.apache.hadoop.fs.Path("/results/" + file.getKey()))) {
        out.write(content);
      }
      Path target = local.resolve(file.getKey());
      Files.createDirectories(target.getParent());
      Files.write(target, content);
    }
  }

  @AfterAll
  static void stopHdfs() {
    if (cluster != null) {
      cluster.shutdown();
    }
  }

  @Test
  void ingestRunsExportAndCompareOnHdfsGiveWhatTheyGiveOnLocalFiles() throws IOException {
    String hdfsWarehouse = hdfs + "/warehouse";
    String localWarehouse = tmp.resolve("local/warehouse").toString();
    Chain onHdfs = chain(hdfs + "/results", hdfsWarehouse, tmp.resolve("report-hdfs"));
    Chain onLocal = chain(tmp.resolve("local/results").toString(), localWarehouse, tmp.resolve("report-local"));

    assertThat(onHdfs.runIds()).as("one run of the two thread files, two pgbench runs, one sysbench run").hasSize(4)
        .isEqualTo(onLocal.runIds());
    assertThat(onHdfs.ingestErr()).contains(hdfs + "/results/a/pgbench_log.4242: pgbench-log");
    assertThat(onHdfs.runs()).isEqualTo(onLocal.runs()).contains("side").contains("pgbench");
    assertThat(onHdfs.tasks()).isEqualTo(onLocal.tasks());
    assertThat(onHdfs.tasks().lines().count()).as("every task line of the pgbench files").isGreaterThan(1000);
    assertThat(onHdfs.report().replace(hdfsWarehouse, "WH")).isEqualTo(onLocal.report().replace(localWarehouse, "WH"))
        .contains("\"pgbench\"");
    // Source paths are stored as the user named them: URIs on HDFS, plain paths locally.
    assertThat(onHdfs.files()).contains("\"" + hdfs + "/results/a/pgbench_log.4242.1\"").doesNotContain(tmp.toString());
    assertThat(onLocal.files()).contains("\"" + tmp.resolve("local/results/a/pgbench_log.4242.1") + "\"")
        .doesNotContain("file:");
    // The Kernel reader (no --conf) and Spark read the same runs on HDFS.
    CommandRun spark = CommandRun.of(new RunsCommand(), "--warehouse", hdfsWarehouse, "--json", "--conf", "spark.sql.shuffle.partitions=2");
    assertThat(spark.stderr()).isEmpty();
    assertThat(normalised(spark.stdout())).isEqualTo(normalised(onHdfs.runsJson()));

    // file: URIs are the plain local paths: the same file through a file: URI, into the local
    // warehouse named by its file: URI, is the run already there (content key, tables and all).
    Path file = tmp.resolve("local/results/b/pgbench_retries.4242");
    CommandRun again = CommandRun.of(new IngestCommand(), "--warehouse", Path.of(localWarehouse).toUri().toString(), file.toUri().toString());
    assertThat(again.exitCode()).as(again.stderr()).isZero();
    assertThat(again.stderr()).contains(file + ": already ingested as run").contains("already ingested, nothing added");
  }

  @Test
  void anUnknownHostAndAMissingFileAreOneLineAndExit2() {
    String warehouse = tmp.resolve("errors-warehouse").toString();
    CommandRun unknown = CommandRun.of(new IngestCommand(), "--warehouse", warehouse, "hdfs://no-such-host.invalid:8020/results");
    assertThat(unknown.exitCode()).isEqualTo(2);
    assertThat(unknown.stderr().strip()).doesNotContain("\n").contains("hdfs://no-such-host.invalid:8020/results")
        .contains("unknown host");
    CommandRun missing = CommandRun.of(new IngestCommand(), "--warehouse", warehouse, hdfs + "/no/such/file");
    assertThat(missing.exitCode()).isEqualTo(2);
    assertThat(missing.stderr().strip()).doesNotContain("\n").endsWith(hdfs + "/no/such/file: no such file or directory");
  }

  /**
   * The lock of an ingest on HDFS (where there are no OS locks) is a lease: held by one client at
   * a time, and taken back from a client that died holding it (here: its files aborted, as a
   * kill -9 leaves them; the NameNode's soft limit shortened from 60 s to 1 s).
   */
  @Test
  void anHdfsLockIsOneClientsAtATimeAndADeadHoldersLockComesBack() throws Exception {
    org.apache.hadoop.fs.Path lock = new org.apache.hadoop.fs.Path("/locks/test.lock");
    FileSystem first = FileSystem.newInstance(cluster.getURI(), cluster.getConfiguration(0));
    FileSystem second = FileSystem.newInstance(cluster.getURI(), cluster.getConfiguration(0));
    ExecutorService waiter = Executors.newSingleThreadExecutor();
    try {
      FSDataOutputStream held = RunLocks.leaseLock(first, lock);
      Future<FSDataOutputStream> next = waiter.submit(() -> RunLocks.leaseLock(second, lock));
      Thread.sleep(2_000);
      assertThat(next.isDone()).as("a second client waits while the first holds the lock").isFalse();
      held.close();
      next.get(30, TimeUnit.SECONDS);
      // The second client dies holding it: its streams aborted, its lease no longer renewed.
      ((DistributedFileSystem) second).getClient().closeAllFilesBeingWritten(true);
      cluster.setLeasePeriod(1_000, 2_000);
      long start = System.nanoTime();
      RunLocks.leaseLock(first, lock).close();
      assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
    } finally {
      cluster.setLeasePeriod(60_000, 1_200_000); // HDFS's defaults: soft limit 1 min, hard limit 20 min
      waiter.shutdownNow();
      first.close();
      second.close();
    }
  }

  /** What one chain printed. */
  record Chain(List<String> runIds, String ingestErr, String runs, String runsJson, String tasks, String files,
      String report) {}

  private static Chain chain(String input, String warehouse, Path out) throws IOException {
    CommandRun ingest = CommandRun.of(new IngestCommand(), "--warehouse", warehouse, "--label-from-path", LABELS, input);
    assertThat(ingest.exitCode()).as(ingest.stderr()).isZero();
    CommandRun runsJson = CommandRun.of(new RunsCommand(), "--warehouse", warehouse, "--json");
    assertThat(runsJson.exitCode()).as(runsJson.stderr()).isZero();
    String runs = export(warehouse, "runs", "--columns",
        "run_id,source_format,source_key,labels,status,started_at,finished_at,tasks_accepted,step_metrics_rows,lines_rejected");
    String tasks = export(warehouse, "tasks", "--format", "jsonl");
    String files = export(warehouse, "ingest_files", "--format", "jsonl");
    CommandRun compare = CommandRun.of(new CompareCommand(), "--warehouse", warehouse, "--baseline", "side=a", "--candidate", "side=b",
        "--out", out.toString());
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();
    return new Chain(ingest.stdout().lines().sorted().toList(), ingest.stderr(), runs, runsJson.stdout(), tasks, files,
        Files.readString(out.resolve("report.json")));
  }

  private static String export(String warehouse, String table, String... args) {
    ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    String[] all = new String[args.length + 6];
    System.arraycopy(new String[] {"--warehouse", warehouse, "--table", table, "--out", "-"}, 0, all, 0, 6);
    System.arraycopy(args, 0, all, 6, args.length);
    CommandRun cli = CommandRun.of(new ExportCommand(stdout), all);
    assertThat(cli.exitCode()).as(table + ": " + cli.stderr()).isZero();
    return stdout.toString(StandardCharsets.UTF_8);
  }

  /** runs --json without the ingest times (each ingest has its own). */
  private static String normalised(String runsJson) {
    return runsJson.replaceAll("\"ingested_at\"\\s*:\\s*\"[^\"]*\"", "\"ingested_at\":\"\"");
  }

  private static byte[] fixture(String name) throws IOException {
    try (InputStream in = HdfsRoundTripIT.class.getResourceAsStream(FIXTURES + name)) {
      assertThat(in).as("ingest fixture " + name).isNotNull();
      return in.readAllBytes();
    }
  }
}
