package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.parse.ParsedRows;
import dev.benchlake.ingest.parse.RawLines;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.spark.sql.Row;

/**
 * Every parser under hostile input: real outputs of each format (the golden fixtures, the shared
 * TestPostgresqlPerf files, loadgen's own contract, a CSV and its mapping), mutated the way the
 * real world mutates files ({@link HostileBytes}), then planned and parsed by the engine's own code
 * ({@link EngineParse}). For every case:
 *
 * <ul>
 *   <li>planning either works or refuses with a {@link BadInputException} (exit 2, one line); any
 *       other exception is a crash;
 *   <li>parsing never throws, and the engine's line count equals an independent count of the bytes;
 *   <li>every line gets exactly one verdict: the verdicts add up to the line count;
 *   <li>every rejected line has a reason, and rejects stay small (raw line and reason cut);
 *   <li>what is accepted is sane: no negative durations, no non-finite metric (an overflow is a
 *       reject, not a wrong number);
 *   <li>cutting a file into chunks changes nothing (same verdicts as one chunk).
 * </ul>
 *
 * <p>Runs are bounded and reproducible: a fixed seed and {@code jqwik.tries.default} tries per
 * format (src/test/resources/junit-platform.properties: 150, a few seconds per format). For more:
 * {@code mvn -pl ingest -am test -Dtest=HostileInputProperties -Dsurefire.failIfNoSpecifiedTests=false
 * -Djqwik.tries.default=5000}; the cases of a shorter run are the first ones of a longer run.
 */
// jqwik ignores JUnit Jupiter's @Tag: its own carries the integration tier here.
@net.jqwik.api.Tag("integration")
class HostileInputProperties {
  static final String SEED = "20260108";
  /** Longest reason a reject may carry (the raw line is cut at {@link RawLines#MAX_CHARS}). */
  static final int MAX_REASON_CHARS = RawLines.MAX_CHARS + 100;

  private static final Path WORK = PropertyWorkDir.create("hostile-input-");

  @AfterContainer
  static void deleteWorkDir() throws IOException {
    PropertyWorkDir.delete(WORK);
  }

  /**
   * A source of one format: its files (relative name → content), the one mutated, and the request;
   * a {@code directory} source is named by the folder of its target (a loadgen run, a mytools folder).
   */
  record Source(String format, Map<String, byte[]> files, String target, boolean directory, String mapping) {
    @Override
    public String toString() {
      return format + ":" + target;
    }
  }

  /** One generated case; its {@code toString} is all it takes to reproduce it. */
  record HostileCase(Source source, List<HostileBytes> mutations, long seed, int chunkBytes) {
    @Override
    public String toString() {
      return source + " " + mutations + " seed=" + seed + " chunkBytes=" + chunkBytes;
    }
  }

  // --- the properties, one per format

  @Property(seed = SEED)
  void pgbenchLogs(@ForAll("pgbenchLogs") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void pgbenchAggregateLogs(@ForAll("pgbenchAgg") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void pgbenchOutput(@ForAll("pgbenchOutput") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void sysbenchOutput(@ForAll("sysbench") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void loadgenRuns(@ForAll("loadgen") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void csvThroughAMapping(@ForAll("csv") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void mytoolsResultFolders(@ForAll("mytools") HostileCase c) throws IOException {
    check(c, WORK);
  }

  @Property(seed = SEED)
  void testPostgresqlPerfDetails(@ForAll("testpgperf") HostileCase c) throws IOException {
    check(c, WORK);
  }

  // --- generators

  @Provide
  Arbitrary<HostileCase> pgbenchLogs() {
    return cases(pgbenchLogsSources());
  }

  static List<Source> pgbenchLogsSources() {
    return List.of(
        fixtures("pgbench-log", "pgbench_log.4242", "pgbench_log.4242", "pgbench_log.4242.1"),
        fixtures("pgbench-log", "pgbench_log.4242.1", "pgbench_log.4242", "pgbench_log.4242.1"),
        fixtures("pgbench-log", "pgbench_retries.4242", "pgbench_retries.4242"),
        fixtures("pgbench-log", "pgbench_skipped.4242", "pgbench_skipped.4242"));
  }

  @Provide
  Arbitrary<HostileCase> pgbenchAgg() {
    return cases(pgbenchAggSources());
  }

  static List<Source> pgbenchAggSources() {
    return List.of(
        fixtures("pgbench-agg", "pgbench_agg.4242", "pgbench_agg.4242", "pgbench_agg.4242.1"),
        fixtures("pgbench-agg", "pgbench_agg.4242.1", "pgbench_agg.4242", "pgbench_agg.4242.1"));
  }

  @Provide
  Arbitrary<HostileCase> pgbenchOutput() {
    return cases(pgbenchOutputSources());
  }

  static List<Source> pgbenchOutputSources() {
    return List.of(
        fixtures("pgbench", "pgbench15-progress.txt", "pgbench15-progress.txt"),
        fixtures("pgbench", "pgbench15-rate-limit.txt", "pgbench15-rate-limit.txt"),
        fixtures("pgbench", "pgbench15-failures.txt", "pgbench15-failures.txt"));
  }

  @Provide
  Arbitrary<HostileCase> sysbench() {
    return cases(sysbenchSources());
  }

  static List<Source> sysbenchSources() {
    return List.of(
        fixtures("sysbench", "oltp_point_select.txt", "oltp_point_select.txt"),
        fixtures("sysbench", "oltp_read_write.txt", "oltp_read_write.txt"));
  }

  @Provide
  Arbitrary<HostileCase> loadgen() {
    return cases(loadgenSources());
  }

  static List<Source> loadgenSources() {
    Map<String, byte[]> run = loadgenRun();
    return List.of(
        new Source("loadgen", run, "run/tasks.csv", true, null),
        new Source("loadgen", run, "run/manifest.json", true, null));
  }

  @Provide
  Arbitrary<HostileCase> csv() {
    return cases(csvSources());
  }

  static List<Source> csvSources() {
    StringBuilder tasks = new StringBuilder("run,query,latency_ms,ts,success,message,thread\n");
    StringBuilder wide = new StringBuilder("query,9.6,10,11\n");
    for (int i = 0; i < 60; i++) {
      boolean ok = i % 7 != 3;
      tasks.append(i % 3 == 0 ? "a" : "b").append(",q").append(i % 4).append(',').append(1.25 + i).append(',')
          .append("2026-01-02T03:04:").append(String.format(java.util.Locale.ROOT, "%02d", i % 60)).append("Z,")
          .append(ok ? "true" : "false").append(',').append(ok ? "" : "\"timeout, again\"").append(',').append(i % 5)
          .append('\n');
      if (i < 12) {
        wide.append("q").append(i).append(',').append(100 + i).append(',').append(i % 5 == 0 ? "" : 98.5 + i)
            .append(',').append(101 + i).append("%\n");
      }
    }
    String tasksMapping = "layout: tasks\ndelimiter: \",\"\ncolumns:\n  run: run\n  step: query\n  latency: latency_ms\n"
        + "  timestamp: ts\n  ok: success\n  error: message\n  client: thread\nlatency_unit: ms\n"
        + "timestamp_format: iso\ntimestamp_is: end\n";
    String wideMapping = "layout: wide\ncolumns:\n  step: query\nmetric: qps\nunit: 1/s\ncolumn_label: db_version\n";
    return List.of(
        new Source("csv", Map.of("results.csv", bytes(tasks), "mapping.yaml", bytes(tasksMapping)), "results.csv",
            false, "mapping.yaml"),
        new Source("csv", Map.of("results.csv", bytes(tasks), "mapping.yaml", bytes(tasksMapping)), "mapping.yaml",
            false, "mapping.yaml"),
        new Source("csv", Map.of("qps.csv", bytes(wide), "mapping.yaml", bytes(wideMapping)), "qps.csv", false,
            "mapping.yaml"));
  }

  @Provide
  Arbitrary<HostileCase> mytools() {
    return cases(mytoolsSources());
  }

  /** One step of the real tree: its raw output, its five summaries and a vmstat capture. */
  static List<Source> mytoolsSources() {
    String folder = "x.pg1424_embedded.default.pk1";
    Path real = IngestTestSupport.fixture("mytools/r1/" + folder);
    Map<String, byte[]> files = new java.util.TreeMap<>();
    for (String name : List.of("sb.o.read-only.range10.pk1.dop1", "sb.r.qps.read-only.range10.pk1",
        "sb.r.trx.read-only.range10.pk1", "sb.r.rtavg.read-only.range10.pk1", "sb.r.rtmax.read-only.range10.pk1",
        "sb.r.rt95.read-only.range10.pk1", "sb.vm.read-only.range10.pk1.dop1")) {
      files.put(folder + "/" + name, read(real.resolve(name)));
    }
    return List.of(
        new Source("mytools", files, folder + "/sb.o.read-only.range10.pk1.dop1", true, null),
        new Source("mytools", files, folder + "/sb.r.qps.read-only.range10.pk1", true, null));
  }

  @Provide
  Arbitrary<HostileCase> testpgperf() {
    return cases(testpgperfSources());
  }

  static List<Source> testpgperfSources() {
    String id = "7fef1b67-3dfb-4190-869a-3ff7cce113c1";
    Path shared = Path.of(System.getProperty("benchlake.shared.dir", "../shared"), "data", "testpgperf", "linux");
    Path details = shared.resolve("details." + id + ".txt");
    Map<String, byte[]> files;
    if (Files.isRegularFile(details)) {
      files = Map.of("details." + id + ".txt", read(details), "summary." + id + ".txt",
          read(shared.resolve("summary." + id + ".txt")));
    } else {
      // Without ../shared (a checkout alone): the layout of the real files, written out.
      StringBuilder d = new StringBuilder();
      for (int i = 0; i < 50; i++) {
        d.append(id).append('\t').append(50 - i).append('\t').append(i == 7 ? -1 : 52_654_390L + i * 1000)
            .append('\t').append(i == 7 ? "00:00:00" : "03:47:" + String.format(java.util.Locale.ROOT, "%02d", i))
            .append("\r\n");
      }
      String s = id + "\r\nRung\tFinshd\tTotal\tTimeout\tError\tExClient\r\n0\t50\t50\t1\t0\t0\r\n"
          + "Minimum Duration:00:00:05.2654390\r\nMaximum Duration:00:00:05.3144390\r\n"
          + "Average Duration:00:00:05.2899390\r\nTimeout while getting a connection from pool.\r\n";
      files = Map.of("details." + id + ".txt", bytes(d), "summary." + id + ".txt", bytes(s));
    }
    return List.of(
        new Source("testpgperf", files, "details." + id + ".txt", false, null),
        new Source("testpgperf", files, "summary." + id + ".txt", false, null));
  }

  /** Every source above, unmutated: real, valid output of each format. */
  static List<Source> validSources() {
    List<Source> all = new ArrayList<>();
    for (List<Source> sources : List.of(pgbenchLogsSources(), pgbenchAggSources(), pgbenchOutputSources(),
        sysbenchSources(), loadgenSources(), csvSources(), testpgperfSources(), mytoolsSources())) {
      all.addAll(sources);
    }
    return all;
  }

  private static Arbitrary<HostileCase> cases(List<Source> sources) {
    return Combinators.combine(
        Arbitraries.of(sources),
        Arbitraries.of(HostileBytes.class).list().ofMinSize(1).ofMaxSize(3),
        Arbitraries.longs(),
        Arbitraries.integers().between(1, 4096))
        .as(HostileCase::new);
  }

  /** Fixture files of one format, copied under their names; {@code target} is the one mutated. */
  private static Source fixtures(String format, String target, String... names) {
    Map<String, byte[]> files = new java.util.TreeMap<>();
    for (String name : names) {
      files.put(name, read(IngestTestSupport.fixture(name)));
    }
    return new Source(format, files, target, false, null);
  }

  private static Map<String, byte[]> loadgenRun() {
    try {
      // WORK is deleted after this class's properties; BomAndCrlfTest may come later in the same JVM.
      Files.createDirectories(WORK);
      Path dir = LoadgenAndCsvIngestTest.loadgenRun(Files.createTempDirectory(WORK, "base").resolve("run"),
          "run-hostile", RunStatus.RUNNING, 80);
      return Map.of("run/manifest.json", read(dir.resolve("manifest.json")), "run/tasks.csv",
          read(dir.resolve("tasks.csv")));
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  // --- the check

  /** Plans and parses one case; fails on anything but a clean refusal or a full, sane accounting. */
  static void check(HostileCase c, Path work) throws IOException {
    Path dir = Files.createTempDirectory(work, "case");
    Random random = new Random(c.seed());
    List<Path> inputs = new ArrayList<>();
    for (Map.Entry<String, byte[]> file : c.source().files().entrySet()) {
      byte[] content = file.getValue();
      if (file.getKey().equals(c.source().target())) {
        for (HostileBytes mutation : c.mutations()) {
          content = mutation.apply(content, random);
        }
      }
      Path path = dir.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.write(path, content);
      if (!c.source().directory() && !file.getKey().equals(c.source().mapping())
          && !file.getKey().startsWith("summary.")) {
        inputs.add(path);
      }
    }
    if (c.source().directory()) {
      inputs.add(dir.resolve(c.source().target().substring(0, c.source().target().indexOf('/'))));
    }
    IngestRequest request = IngestRequest.of(inputs.toArray(Path[]::new)).withFormat(c.source().format());
    if (c.source().mapping() != null) {
      request = request.withMapping(dir.resolve(c.source().mapping()));
    }
    List<SourcePlan> plans;
    try {
      plans = Formats.named(c.source().format()).plan(LocalPaths.of(inputs), request.planContext());
    } catch (BadInputException refused) {
      assertThat(refused.getMessage()).as("a refusal says why in one line").isNotBlank().doesNotContain("\n");
      return;
    }
    for (SourcePlan plan : plans) {
      List<EngineParse.FileVerdicts> chunked = EngineParse.parse(plan, chunkBytes(c.chunkBytes(), plan));
      List<EngineParse.FileVerdicts> whole = EngineParse.parse(plan, Integer.MAX_VALUE);
      for (int f = 0; f < chunked.size(); f++) {
        EngineParse.FileVerdicts v = chunked.get(f);
        String what = v.path().getFileName() + " of " + c;
        assertThat(v.lines()).as("line count of " + what).isEqualTo(HostileBytes.editorLineCount(Files.readAllBytes(v.path())));
        assertThat(v.verdictLines()).as("verdicts of " + what).isEqualTo(v.lines());
        assertThat(v.tasks()).as("tasks of " + what).hasSize((int) v.taskLines());
        for (Row reject : v.rejects()) {
          assertThat(reject.getString(EngineParse.REASON)).as("reason of a reject in " + what).isNotBlank()
              .hasSizeLessThanOrEqualTo(MAX_REASON_CHARS);
          assertThat(reject.getString(EngineParse.RAW_LINE)).as("raw line of a reject in " + what).isNotNull()
              .hasSizeLessThanOrEqualTo(RawLines.MAX_CHARS + 40);
        }
        for (Row metric : v.metrics()) {
          for (int i : new int[] {EngineParse.VALUE, EngineParse.BUCKET, EngineParse.INTERVAL_START, EngineParse.INTERVAL}) {
            assertThat(metric.isNullAt(i) || Double.isFinite(metric.getDouble(i))).as("finite metric " + metric + " in " + what)
                .isTrue();
          }
        }
        for (Row task : v.tasks()) {
          assertSaneTask(task, what);
        }
        EngineParse.FileVerdicts one = whole.get(f);
        assertThat(List.of(v.taskLines(), v.metricLines(), v.metadataLines(), v.rejectLines(), v.rejectedLineNumbers()))
            .as("chunks change nothing in " + what)
            .isEqualTo(List.of(one.taskLines(), one.metricLines(), one.metadataLines(), one.rejectLines(),
                one.rejectedLineNumbers()));
      }
    }
  }

  /**
   * At most this many chunks per file. Each chunk opens its file, as an executor's task does: on
   * the 68 KB pgbench_skipped.4242, 1-byte chunks took 10 s for one case (68,000 opens), where 17
   * bytes or more still put one or two boundaries in every line (its lines are 29-36 bytes) and the
   * small fixtures keep every byte a boundary.
   */
  static final int MAX_CHUNKS = 4_096;

  /** The drawn chunk size, or the smallest that cuts the plan's largest file in {@link #MAX_CHUNKS}. */
  private static long chunkBytes(int drawn, SourcePlan plan) throws IOException {
    long largest = 0;
    for (SourcePlan.PlannedFile file : plan.files()) {
      largest = Math.max(largest, Files.size(LocalPaths.local(file.path())));
    }
    return Math.max(drawn, (largest + MAX_CHUNKS - 1) / MAX_CHUNKS);
  }

  private static final int LATENCY = ParsedRows.TASK_SCHEMA.fieldIndex("latency_ns");
  private static final int SERVICE = ParsedRows.TASK_SCHEMA.fieldIndex("service_ns");
  private static final int WAIT = ParsedRows.TASK_SCHEMA.fieldIndex("wait_ns");
  private static final int START = ParsedRows.TASK_SCHEMA.fieldIndex(ParsedRows.START_US);
  private static final int END = ParsedRows.TASK_SCHEMA.fieldIndex(ParsedRows.END_US);
  private static final int STEP = ParsedRows.TASK_SCHEMA.fieldIndex("step");

  private static void assertSaneTask(Row task, String what) {
    String row = task + " in " + what;
    for (int i : new int[] {LATENCY, SERVICE, WAIT}) {
      if (!task.isNullAt(i)) {
        assertThat(task.getLong(i)).as("duration " + ParsedRows.TASK_SCHEMA.fields()[i].name() + " of " + row)
            .isNotNegative();
      }
    }
    if (!task.isNullAt(LATENCY) && !task.isNullAt(SERVICE)) {
      assertThat(task.getLong(SERVICE)).as("service within latency: " + row).isLessThanOrEqualTo(task.getLong(LATENCY));
    }
    if (!task.isNullAt(START) && !task.isNullAt(END)) {
      assertThat(task.getLong(START)).as("start before end: " + row).isLessThanOrEqualTo(task.getLong(END));
    }
    assertThat(task.getString(STEP)).as("step of " + row).isNotEmpty();
  }

  private static byte[] read(Path path) {
    try {
      return Files.readAllBytes(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] bytes(CharSequence text) {
    return text.toString().getBytes(StandardCharsets.UTF_8);
  }
}
