package dev.benchlake.bench;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.CompareMarkdown;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.warehouse.spark.SparkSessions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * How fast the engine is, against DuckDB and against Spark doing nothing but read: the engine's
 * exact quantiles per run, as compare gets them (goal ≤ 1.5× a plain Spark scan of the columns it
 * reads), the same by selection without sorting ({@link ExactQuantiles}), DuckDB's
 * {@code quantile_cont} beside both, and a full comparison of two groups (goal ≤ 3× the same scan). Every figure is the
 * median of {@code --repeat} timed runs after one warm-up run, in wall-clock time and in CPU time
 * of the whole process (Spark and DuckDB both run in it), which machines shared with other work
 * disturb less.
 */
@Command(name = "compare-benchmark", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = "Times exact quantiles and a full compare against DuckDB and a plain Spark scan.")
public final class CompareBenchmark implements Callable<Integer> {
  private static final double[] P = {0.5, 0.9, 0.95, 0.99, 0.999};

  @Option(names = "--tasks", defaultValue = "20000000", description = "Tasks in all (default: ${DEFAULT-VALUE}).")
  long tasks;

  @Option(names = "--groups", defaultValue = "10", description = "Runs; half baseline, half candidate (default: ${DEFAULT-VALUE}).")
  int groups;

  @Option(names = "--files", defaultValue = "8", description = "Parquet files of the tasks table (default: ${DEFAULT-VALUE}).")
  int files;

  @Option(names = "--repeat", defaultValue = "5", description = "Timed runs of each measurement (default: ${DEFAULT-VALUE}).")
  int repeat;

  @Option(names = "--quantiles-only", description = "Time the scans and the quantiles only, not the full compare.")
  boolean quantilesOnly;

  @Option(names = "--dir", defaultValue = "/tmp/benchlake-bench", description = "Where the data is generated once (default: ${DEFAULT-VALUE}).")
  Path dir;

  @Override
  public Integer call() throws Exception {
    SparkSession spark = SparkSessions.getOrCreate("benchlake bench", null, Map.of());
    spark.sparkContext().setLogLevel("WARN");
    Path root = dir.resolve("warehouse-v2-" + tasks + "-" + groups + "-" + files);
    Warehouse warehouse = Warehouse.at(spark, root.toString());
    Path done = root.resolve("_GENERATED");
    if (!Files.exists(done)) {
      long started = System.nanoTime();
      System.err.printf(Locale.ROOT, "generating %,d tasks in %d runs into %s …%n", tasks, groups, root);
      BenchData.write(spark, warehouse, tasks, groups, files);
      Files.writeString(done, "ok\n", java.nio.charset.StandardCharsets.UTF_8);
      System.err.printf(Locale.ROOT, "generated in %.1f s%n", (System.nanoTime() - started) / 1e9);
    }
    String parquet = warehouse.path(Table.TASKS);
    System.out.printf(Locale.ROOT, "benchlake compare benchmark: %,d tasks, %d runs, %d files, Spark master %s, %d cores, "
        + "median of %d runs after a warm-up%n", tasks, groups, files, spark.sparkContext().master(),
        Runtime.getRuntime().availableProcessors(), repeat);

    Dataset<Row> okTasks = spark.read().parquet(parquet).where("ok and not warmup");
    Timing latencyScan = time("Spark plain scan: count, sum of latency_ns", () -> okTasks.agg(
        org.apache.spark.sql.functions.count("*"), org.apache.spark.sql.functions.sum("latency_ns")).collect());
    Timing pairScan = time("Spark plain scan: run_id, latency_ns as rows", () -> okTasks.select("run_id", "latency_ns")
        .write().format("noop").mode("overwrite").save());
    // Every column the compare reads, from the same Delta table, turned into rows and dropped
    // (Spark's "noop" sink).
    Timing scan = time("Spark plain scan: the compare's columns as rows", () -> spark.read().format("delta")
        .load(parquet).where("not warmup").select("step", "run_id", "latency_ns", "ok", "sqlstate", "error", "end_ts")
        .write().format("noop").mode("overwrite").save());
    // The engine's exact quantiles (compare's path: sort, then read ranks) over the same columns.
    List<String> runIds = new ArrayList<>();
    for (int g = 0; g < groups; g++) {
      runIds.add(BenchData.runId(g));
    }
    Map<String, double[]> ours = new TreeMap<>();
    Timing quantiles = time("benchlake engine exact quantiles, 5 per run", () -> ours.putAll(
        EngineQuantiles.of(warehouse, runIds, BenchData.STEP, P)));
    Map<String, double[]> selected = new TreeMap<>();
    Timing selection = time("selection without sorting (ExactQuantiles)", () -> selected.putAll(
        ExactQuantiles.of(okTasks.select("run_id", "latency_ns"), P)));
    Map<String, double[]> duck = new TreeMap<>();
    Timing duckdb;
    Timing duckScan;
    try (Connection db = DriverManager.getConnection("jdbc:duckdb:")) {
      String from = " FROM read_parquet('" + parquet + "/*.parquet') WHERE ok AND NOT warmup";
      duckScan = time("DuckDB plain scan: count, sum of latency_ns", () -> query(db, "SELECT count(*), sum(latency_ns)" + from));
      duckdb = time("DuckDB quantile_cont, 5 per run", () -> duck.putAll(duckQuantiles(db,
          "SELECT run_id, quantile_cont(latency_ns, [0.5, 0.9, 0.95, 0.99, 0.999])" + from + " GROUP BY run_id")));
    }
    System.out.println();
    System.out.printf(Locale.ROOT, "engine quantiles identical to DuckDB's: %s%n", identical(ours, duck));
    System.out.printf(Locale.ROOT, "selection quantiles identical to DuckDB's: %s%n", identical(selected, duck));
    ratio("engine exact quantiles / Spark plain scan of its columns (goal <= 1.5)", quantiles.over(scan));
    ratio("engine exact quantiles / DuckDB quantile_cont", quantiles.over(duckdb));
    ratio("selection quantiles / Spark plain scan of its columns", selection.over(pairScan));
    ratio("selection quantiles / Spark plain scan of latency_ns", selection.over(latencyScan));
    ratio("selection quantiles / DuckDB quantile_cont", selection.over(duckdb));
    ratio("Spark latency scan / DuckDB latency scan", latencyScan.over(duckScan));
    if (quantilesOnly) {
      return 0;
    }
    ComparisonReport[] report = new ComparisonReport[1];
    CompareRequest request = CompareRequest.of("os=linux", "os=windows");
    Timing compare = time("benchlake full compare, " + groups / 2 + " vs " + (groups - groups / 2) + " runs",
        () -> report[0] = Compare.run(warehouse, request));
    ratio("full compare / Spark plain scan of its columns (goal <= 3)", compare.over(scan));
    ratio("full compare / Spark plain scan of latency_ns", compare.over(latencyScan));
    System.out.println();
    System.out.print(CompareMarkdown.summaryTable(report[0]));
    return 0;
  }

  /** A measurement: median wall-clock and CPU seconds. */
  private record Timing(double wallS, double cpuS) {
    Timing over(Timing other) {
      return new Timing(wallS / other.wallS, cpuS / other.cpuS);
    }
  }

  /** Runs {@code work} once to warm up, then {@code repeat} times; prints and returns the medians. */
  private Timing time(String what, ThrowingRunnable work) throws Exception {
    work.run();
    double[] wall = new double[repeat];
    double[] cpu = new double[repeat];
    for (int i = 0; i < repeat; i++) {
      long cpuStarted = cpuNanos();
      long started = System.nanoTime();
      work.run();
      wall[i] = (System.nanoTime() - started) / 1e9;
      cpu[i] = (cpuNanos() - cpuStarted) / 1e9;
    }
    List<String> runs = new ArrayList<>();
    for (double s : wall) {
      runs.add(String.format(Locale.ROOT, "%.2f", s));
    }
    Timing t = new Timing(median(wall), median(cpu));
    System.out.printf(Locale.ROOT, "%-50s wall %6.2f s  cpu %6.2f s  (wall runs: %s)%n", what, t.wallS(), t.cpuS(),
        String.join(", ", runs));
    return t;
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** CPU time of every thread of this process, Spark's and DuckDB's alike. */
  @SuppressForbidden(reason = "the process CPU time has no portable API; every JDK this build allows has this one")
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void ratio(String what, Timing ratio) {
    System.out.printf(Locale.ROOT, "%-60s wall %5.2f  cpu %5.2f%n", what, ratio.wallS(), ratio.cpuS());
  }

  private interface ThrowingRunnable {
    void run() throws Exception;
  }

  private static void query(Connection db, String sql) throws SQLException {
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        rs.getLong(1);
      }
    }
  }

  private static Map<String, double[]> duckQuantiles(Connection db, String sql) throws SQLException {
    Map<String, double[]> result = new TreeMap<>();
    try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      while (rs.next()) {
        Array array = rs.getArray(2);
        Object[] values = (Object[]) array.getArray();
        double[] q = new double[values.length];
        for (int i = 0; i < q.length; i++) {
          q[i] = ((Number) values[i]).doubleValue();
        }
        result.put(rs.getString(1), q);
      }
    }
    return result;
  }

  /** Whether both engines give the same quantiles (to 1e-12 relative: the same interpolation). */
  private static boolean identical(Map<String, double[]> ours, Map<String, double[]> duck) {
    if (!ours.keySet().equals(duck.keySet())) {
      return false;
    }
    for (String group : ours.keySet()) {
      for (int i = 0; i < P.length; i++) {
        double a = ours.get(group)[i];
        double b = duck.get(group)[i];
        if (Math.abs(a - b) > 1e-12 * Math.abs(b)) {
          System.out.printf(Locale.ROOT, "differs: %s q%s: %s vs %s%n", group, P[i], a, b);
          return false;
        }
      }
    }
    return true;
  }

  public static void main(String[] args) {
    System.exit(Cli.execute(new CompareBenchmark(), args));
  }
}
