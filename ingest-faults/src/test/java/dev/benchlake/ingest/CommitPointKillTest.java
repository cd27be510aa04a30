package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.write.WarehouseWriter.CommitListener;
import dev.benchlake.warehouse.cli.ExportCommand;
import dev.benchlake.warehouse.cli.RunsCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A re-run after kills at commit points lands every row exactly once (docs/guarantees.md §2, §3).
 * A commit point is a Delta log commit an ingest makes: each append (rejects, ingest_files,
 * step_metrics, tasks, then runs, the commit point readers join on) and each clean-up DELETE of the
 * rows a killed ingest left (or of the runs {@code --replace} replaces). They are enumerated from
 * the real sequence: an ingest run in-process with a {@link CommitListener} that records each
 * commit, checked against the files that appeared in the tables' {@code _delta_log} folders.
 *
 * <p>A kill is a real {@code kill -9} of a real ingest process ({@link KillableIngest} in a child
 * JVM), stopped in the listener right after its N-th commit returned; the test checks that exactly
 * N log files appeared, in the tables the enumeration names. After every kill: the warehouse reads
 * ({@code runs}, and {@code export} of every table), and each visible run is exactly the run a clean
 * ingest makes. After the final plain re-run: every row of every table, committed or not, is the
 * clean ingest's, exactly once.
 *
 * <p>The input is one ingest of two sources, so that every table gets rows: a pgbench log (tasks and
 * rejects) and a sysbench output (step_metrics). Sequences:
 * <ul>
 *   <li><b>single</b>: killed at commit point i of a first ingest, then a plain re-run (every i);
 *   <li><b>pair</b>: killed at i, re-run and killed at point j of the re-run's own sequence (its
 *       clean-up DELETEs first), then a plain re-run. CI runs one pair: killed after the tasks'
 *       commit, then after the last clean-up DELETE (issue 25's reproduction: the re-run reported
 *       its tasks added and landed none);
 *   <li><b>replace</b>: a committed run re-ingested with {@code --replace} and killed at its point
 *       j, then a plain re-run. CI runs j = its last DELETE.
 * </ul>
 * {@code -Dbenchlake.kill.full=true} runs every pair and every replace point.
 *
 * <p>The children run one at a time in a {@link KillLane}, beside this JVM's in-process ingests,
 * re-runs and checks (each kill is checked once it is made, in a warehouse nothing else touches):
 * on two cores the children's JVM and Spark start-ups and ingests overlap the re-runs instead of
 * waiting for them (CI, loaded machine: 608 s one after the other).
 */
@org.junit.jupiter.api.Tag("integration")
class CommitPointKillTest extends IngestTestSupport {
  static {
    ChildJvmArchive.makeInBackground(); // while this JVM starts its Spark session
  }

  static final boolean FULL = Boolean.getBoolean("benchlake.kill.full");
  private static final int LINES = 5_000;
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern LOG_FILE = Pattern.compile("\\d{20}\\.json");

  /** A commit an ingest made: {@code append rejects}, {@code delete tasks}, …. */
  record Commit(String kind, Table table) {
    @Override
    public String toString() {
      return kind + " " + table.dirName();
    }
  }

  /** Records every commit of an in-process ingest. */
  private static final class Recorder implements CommitListener {
    final List<Commit> commits = new ArrayList<>();

    @Override
    public void afterCommit(Table table) {
      commits.add(new Commit("append", table));
    }

    @Override
    public void afterDelete(Table table) {
      commits.add(new Commit("delete", table));
    }
  }

  private Path[] inputs;
  /** The clean ingest's rows: table → run id → rows (JSON, without ingested_at), as export gives them. */
  private Map<Table, Map<String, List<String>>> reference;
  private final List<String> done = new ArrayList<>();

  @Test
  void killedAtAnyCommitPointOfAnyIngestAPlainRerunLandsEveryRowOnce() throws Exception {
    inputs = inputs();
    long startNs = System.nanoTime();
    // The children run one at a time beside this JVM's work: each kill's checks and re-run wait for
    // that kill only, and the children's JVM and Spark start-ups and ingests overlap the re-runs.
    try (KillLane lane = new KillLane(tmp.resolve("children"), inputs)) {
      Path clean = tmp.resolve("clean");
      Map<Integer, Pending> singles = new TreeMap<>();
      // Queued before the clean ingest (and while the children's class-data archive is made): the
      // commit sequence it must match is known by the time the kill is checked. It waits for the
      // archive: started without it, beside the training, it was no sooner at its kill on a loaded
      // machine (150 s against 130 s) and cost more CPU.
      singles.put(1, pending(lane, tmp.resolve("killed-1"), false, 1));
      List<Commit> first = run(clean, false);
      assertThat(first).as("a first ingest appends to every table, runs last").extracting(Commit::table)
          .containsExactly(Table.REJECTS, Table.INGEST_FILES, Table.STEP_METRICS, Table.TASKS, Table.RUNS);
      for (int i = 2; i <= first.size(); i++) {
        singles.put(i, pending(lane, tmp.resolve("killed-" + i), false, i));
      }
      reference = exported(clean);
      Map<Table, List<String>> cleanOnDisk = onDisk(clean);

      // --replace of the committed run: its DELETEs (runs first), then its appends.
      List<Commit> replace = run(FileTrees.copy(clean, tmp.resolve("replaced")), true);
      assertThat(replace.subList(0, 5)).as("--replace removes the run from every table, runs first")
          .allMatch(c -> c.kind().equals("delete")).first().isEqualTo(new Commit("delete", Table.RUNS));
      List<Pending> later = new ArrayList<>();
      for (int j = 1; j <= replace.size(); j++) {
        if (FULL || j == lastDelete(replace)) {
          Path killed = FileTrees.copy(clean, tmp.resolve("replace-" + j));
          later.add(pending(lane, killed, true, j).after(replace, "a --replace killed after " + replace.get(j - 1)));
        }
      }

      int pairs = 0;
      for (int i = 1; i <= first.size(); i++) {
        Path killed = check(singles.get(i), first);
        String single = "killed after " + first.get(i - 1);
        List<Commit> rerun = plainRun(FileTrees.copy(killed, tmp.resolve("single-" + i)), single, cleanOnDisk);
        for (int j = 1; j <= rerun.size(); j++) {
          boolean repro = first.get(i - 1).equals(new Commit("append", Table.TASKS))
              && j == lastDelete(rerun);
          if (!FULL && !repro) {
            continue;
          }
          Path pair = FileTrees.copy(killed, tmp.resolve("pair-" + i + "-" + j));
          later.add(pending(lane, pair, false, j).after(rerun, single + ", then after " + rerun.get(j - 1) + " of the re-run"));
          pairs++;
        }
      }
      assertThat(pairs).as("pairs run").isGreaterThanOrEqualTo(1);
      for (Pending kill : later) {
        plainRun(check(kill, kill.expected), kill.what, cleanOnDisk);
      }
    }
    System.out.printf(Locale.ROOT, "CommitPointKillTest: %d kills and re-runs in %d s (%s)%n", done.size(),
        TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs), FULL ? "full" : "CI");
    done.forEach(d -> System.out.println("  " + d));
  }

  /**
   * A kill queued in the lane, with the log files its warehouse held before (nothing touches the
   * warehouse until the kill is checked), and, for the kills checked after the first ingest's, the
   * commit sequence it stops in and what it is.
   */
  private record Pending(Future<KillLane.Killed> kill, Map<Table, Integer> before, List<Commit> expected, String what) {
    Pending after(List<Commit> sequence, String description) {
      return new Pending(kill, before, sequence, description);
    }
  }

  private static Pending pending(KillLane lane, Path warehouse, boolean replace, int n) {
    Map<Table, Integer> before = logFiles(warehouse);
    return new Pending(lane.kill(warehouse, replace, n), before, null, null);
  }

  /** The index (from 1) of the last clean-up DELETE of a sequence. */
  private static int lastDelete(List<Commit> commits) {
    int last = 0;
    for (int k = 0; k < commits.size(); k++) {
      if (commits.get(k).kind().equals("delete")) {
        last = k + 1;
      }
    }
    assertThat(last).as("a clean-up DELETE in " + commits).isPositive();
    return last;
  }

  private Path[] inputs() throws IOException {
    Path dir = Files.createDirectories(tmp.resolve("input"));
    Path log = PgbenchLogs.withAborts(dir.resolve("pgbench_log.777"), LINES, 1_000, 0); // tasks and rejects
    Path sysbench = Files.copy(fixture("oltp_point_select.txt"), dir.resolve("oltp_point_select.txt"));
    return new Path[] {log, sysbench};
  }

  /** An ingest of the inputs in this JVM, to its end: the commits it made, checked against the logs. */
  private List<Commit> run(Path warehouse, boolean replace) throws IOException {
    Map<Table, Integer> before = logFiles(warehouse);
    Recorder recorder = new Recorder();
    Ingest.run(spark, Warehouse.at(spark, warehouse.toString()),
        IngestRequest.of(inputs).withChunkBytes(1 << 15).withReplace(replace), recorder);
    assertThat(newLogFiles(before, logFiles(warehouse))).as("the log files of " + recorder.commits)
        .isEqualTo(perTable(recorder.commits));
    return recorder.commits;
  }

  /** A plain ingest of the inputs after the kills of {@code what}, and the warehouse it must leave. */
  private List<Commit> plainRun(Path warehouse, String what, Map<Table, List<String>> cleanOnDisk) throws IOException {
    long startNs = System.nanoTime();
    List<Commit> commits = run(warehouse, false);
    assertThat(exported(warehouse)).as("the runs after " + what + ", then a plain re-run").isEqualTo(reference);
    assertThat(onDisk(warehouse)).as("every row on disk, committed or not, once, after " + what + ", then a plain re-run")
        .isEqualTo(cleanOnDisk);
    done.add(String.format(Locale.ROOT, "%s: the re-run made %s (%.1f s, with its checks)", what, commits,
        (System.nanoTime() - startNs) / 1e9));
    return commits;
  }

  /**
   * Checks the kill of a child that ingested the inputs and was killed (SIGKILL) right after its
   * {@code n}-th commit, which must be {@code expected.get(n - 1)}: exactly the first {@code n} of
   * {@code expected} appeared in the logs. Then the warehouse must read, showing whole runs only.
   *
   * @return the killed child's warehouse
   */
  private Path check(Pending pending, List<Commit> expected) throws Exception {
    KillLane.Killed killed = KillLane.await(pending.kill());
    int n = killed.n();
    assertThat(killed.exitValue()).as("killed").isEqualTo(137);
    String what = (killed.replace() ? "a --replace" : "an ingest") + " killed after " + expected.get(n - 1);
    done.add(String.format(Locale.ROOT, "%s (%.1f s to the kill)", what, killed.seconds()));
    assertThat(newLogFiles(pending.before(), logFiles(killed.warehouse()))).as("the log files when " + what)
        .isEqualTo(perTable(expected.subList(0, n)));
    assertVisibleRunsAreWhole(killed.warehouse(), what);
    return killed.warehouse();
  }

  /**
   * The warehouse reads ({@code runs} and {@code export} of every table exit 0; while no runs commit
   * exists, {@code export} exits 2, "no warehouse"), and every run it shows is the clean ingest's, whole.
   */
  private void assertVisibleRunsAreWhole(Path warehouse, String when) throws IOException {
    if (logFiles(warehouse).getOrDefault(Table.RUNS, 0) == 0) {
      CommandRun none = export(warehouse, Table.RUNS);
      assertThat(none.exitCode()).as(when + ": " + none.stderr()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(none.stderr()).as(when).startsWith("export: no warehouse at ");
      return;
    }
    Map<Table, Map<String, List<String>>> visible = exported(warehouse);
    CommandRun runs = CommandRun.of(new RunsCommand(), "--warehouse", warehouse.toString(), "--json");
    assertThat(runs.exitCode()).as(when + ": " + runs.stderr()).isZero();
    assertThat(runs.stdout().lines().map(CommitPointKillTest::runId).toList()).as(when + ": benchlake runs")
        .containsExactlyInAnyOrderElementsOf(visible.get(Table.RUNS).keySet());
    for (String run : visible.get(Table.RUNS).keySet()) {
      for (Table table : Table.values()) {
        assertThat(visible.get(table).getOrDefault(run, List.of())).as(when + ": the " + table.dirName() + " of run " + run)
            .isEqualTo(reference.get(table).getOrDefault(run, List.of()));
      }
    }
    for (Table table : Table.values()) {
      assertThat(visible.get(Table.RUNS).keySet()).as(when + ": runs with rows in " + table.dirName())
          .containsAll(visible.get(table).keySet());
    }
  }

  /** Every table as {@code benchlake export --format jsonl} gives it: run id → rows, without ingested_at. */
  private Map<Table, Map<String, List<String>>> exported(Path warehouse) {
    Map<Table, Map<String, List<String>>> tables = new TreeMap<>();
    for (Table table : Table.values()) {
      CommandRun export = export(warehouse, table);
      assertThat(export.exitCode()).as(export.stderr()).isZero();
      Map<String, List<String>> byRun = new TreeMap<>();
      export.stdout().lines().forEach(line -> {
        try {
          ObjectNode row = (ObjectNode) JSON.readTree(line);
          row.remove("ingested_at");
          byRun.computeIfAbsent(row.get("run_id").asText(), k -> new ArrayList<>()).add(row.toString());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
      byRun.values().forEach(rows -> rows.sort(Comparator.naturalOrder()));
      tables.put(table, byRun);
    }
    return tables;
  }

  private static String runId(String jsonLine) {
    try {
      return JSON.readTree(jsonLine).get("run_id").asText();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static CommandRun export(Path warehouse, Table table) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    CommandRun run = CommandRun.of(new ExportCommand(out), "--warehouse", warehouse.toString(), "--table",
        table.dirName(), "--format", "jsonl", "--out", "-");
    return new CommandRun(run.exitCode(), out.toString(StandardCharsets.UTF_8), run.stderr());
  }

  /** Every row of every table on disk, committed or not (Delta's own reader), without ingested_at, sorted. */
  private Map<Table, List<String>> onDisk(Path warehouse) {
    Map<Table, List<String>> tables = new TreeMap<>();
    for (Table table : Table.values()) {
      List<String> rows = new ArrayList<>();
      if (logFiles(warehouse).getOrDefault(table, 0) > 0) {
        rows.addAll(spark.read().format("delta").load(warehouse.resolve(table.dirName()).toString())
            .drop("ingested_at").toJSON().collectAsList());
      }
      rows.sort(Comparator.naturalOrder());
      tables.put(table, rows);
    }
    return tables;
  }

  /** How many commit files each table's log holds. */
  private static Map<Table, Integer> logFiles(Path warehouse) {
    Map<Table, Integer> counts = new TreeMap<>();
    for (Table table : Table.values()) {
      Path log = warehouse.resolve(table.dirName()).resolve("_delta_log");
      if (Files.isDirectory(log)) {
        try (Stream<Path> files = Files.list(log)) {
          counts.put(table, (int) files.filter(f -> LOG_FILE.matcher(f.getFileName().toString()).matches()).count());
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return counts;
  }

  private static Map<Table, Integer> newLogFiles(Map<Table, Integer> before, Map<Table, Integer> after) {
    Map<Table, Integer> added = new TreeMap<>();
    after.forEach((table, count) -> {
      int more = count - before.getOrDefault(table, 0);
      if (more != 0) {
        added.put(table, more);
      }
    });
    return added;
  }

  private static Map<Table, Integer> perTable(List<Commit> commits) {
    Map<Table, Integer> counts = new TreeMap<>();
    commits.forEach(c -> counts.merge(c.table(), 1, Integer::sum));
    return counts;
  }
}
