package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.core.Json;
import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.RunResult;
import dev.benchlake.loadgen.StepResult;
import dev.benchlake.loadgen.db.EmbeddedBinaries;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * A version study: every run of the {@link VersionStudyPlan} on a fresh embedded server of its
 * major (loadgen starts and stops one per run: runs that share a server share its caches and
 * state), then one ingest of all runs and the trend of qps by {@code db_major}, relative to the
 * first major, over this study's runs only (label {@code study_id}).
 *
 * <p>Output folder: {@code runs/<r>-pg<major>/} (raw loadgen runs), {@code trend/}
 * (trend.json/md/html), {@code study.json} (the plan, the seed and the order the runs ran in), and
 * the warehouse ({@code warehouse/} unless another is given).
 */
public final class VersionStudy {
  /** The label that ties a study's runs together; its trend selects on it. */
  public static final String STUDY_LABEL = "study_id";
  public static final String STUDY_FILE = "study.json";

  private final VersionStudyPlan plan;
  private final Path out;
  private final Path warehouseDir;
  private final PrintWriter log;

  public VersionStudy(VersionStudyPlan plan, Path out, Path warehouseDir, PrintWriter log) {
    this.plan = plan;
    this.out = out;
    this.warehouseDir = warehouseDir;
    this.log = log;
  }

  /** What the study produced. */
  public record Outcome(String studyId, List<Path> runDirs, TrendReport trend, Path trendDir) {}

  /**
   * Checks everything a user can get wrong before anything runs: the majors' binaries, the loadgen
   * options (by validating the first run's config), the output folder.
   *
   * @throws dev.benchlake.core.cli.BadInputException naming the problem
   */
  public void validate() {
    List<Integer> available = EmbeddedBinaries.discover().majors();
    for (int major : plan.majors()) {
      if (!available.contains(major)) {
        throw new BadInputException("--pg " + major + ": no embedded PostgreSQL " + major + " for this platform; "
            + "available: " + String.join(", ", available.stream().map(String::valueOf).toList()));
      }
    }
    StudyFolders.requireNewOrEmpty(out);
    VersionStudyPlan.Run first = plan.schedule().get(0);
    Loadgen.validate(config(first, "validate", out.resolve("runs").resolve(first.dirName())));
  }

  /** Runs the study; {@code spark} is created only once the load is done (it would compete for CPU). */
  public Outcome run(Supplier<SparkSession> spark) throws IOException {
    validate();
    String studyId = "versions-" + Long.toHexString(plan.seed()) + "-" + Long.toHexString(System.currentTimeMillis());
    Files.createDirectories(out.resolve("runs"));
    List<VersionStudyPlan.Run> schedule = plan.schedule();
    List<Path> runDirs = new ArrayList<>();
    List<String> runIds = new ArrayList<>();
    for (int i = 0; i < schedule.size(); i++) {
      VersionStudyPlan.Run run = schedule.get(i);
      Path dir = out.resolve("runs").resolve(run.dirName());
      long startNs = System.nanoTime();
      status(String.format(Locale.ROOT, "[%d/%d] round %d, PostgreSQL %d: starting a fresh server", i + 1,
          schedule.size(), run.round(), run.major()));
      RunResult result = Loadgen.run(config(run, studyId, dir), ChainStages.stepLines(log));
      long tasks = result.steps().stream().mapToLong(StepResult::attempts).sum();
      long errors = result.steps().stream().mapToLong(StepResult::errors).sum();
      status(String.format(Locale.ROOT, "[%d/%d] round %d, PostgreSQL %d: %s in %.0f s, %d steps, %d tasks, %d errors",
          i + 1, schedule.size(), run.round(), run.major(), result.status().json(), (System.nanoTime() - startNs) / 1e9,
          result.steps().size(), tasks, errors));
      if (result.status() != RunStatus.COMPLETE) {
        throw new IllegalStateException("run " + dir + " " + result.status().json() + ": " + result.manifest().error());
      }
      runDirs.add(result.runDir());
      runIds.add(result.manifest().runId());
      writeStudyFile(studyId, schedule.subList(0, i + 1), runIds);
    }
    Warehouse warehouse = Warehouse.at(spark.get(), warehouseDir.toString());
    status("ingesting " + runDirs.size() + " runs into " + warehouseDir);
    ChainStages.Ingested ingested = ChainStages.ingestLoadgenRuns(warehouse, runDirs);
    status(String.format(Locale.ROOT, "ingested %d runs, %d tasks, %d lines rejected", ingested.runs(),
        ingested.tasks(), ingested.rejected()));
    Path trendDir = out.resolve("trend");
    status("trend of qps by PostgreSQL major, relative to " + plan.base());
    TrendReport trend = ChainStages.writeTrend(warehouse, "db_major", plan.base(), "qps",
        STUDY_LABEL + "=" + studyId, trendDir);
    return new Outcome(studyId, runDirs, trend, trendDir);
  }

  private LoadgenConfig config(VersionStudyPlan.Run run, String studyId, Path dir) {
    Map<String, String> labels = new TreeMap<>();
    labels.put(Labels.OS, System.getProperty("os.name").toLowerCase(Locale.ROOT));
    labels.put("source", "study-versions");
    labels.put(STUDY_LABEL, studyId);
    labels.put("round", Integer.toString(run.round()));
    labels.put("position", Integer.toString(run.position()));
    return LoadgenConfig.builder()
        .target(new LoadgenConfig.Embedded(run.major(), Map.of(), null))
        .workload("sysbench")
        .steps(plan.steps())
        .tables(plan.tables())
        .tableSize(plan.tableSize())
        .mode(LoadgenConfig.Mode.closed(plan.clients()))
        .readDuration(plan.readDuration())
        .writeDuration(plan.writeDuration())
        .warmup(plan.warmup())
        // The same data for every major of a round; a new draw each round.
        .randomSeed(plan.seed() + run.round())
        .outDir(dir)
        .labels(labels)
        .build();
  }

  /** The plan and the order the runs ran in, rewritten after each run (a crash keeps what ran). */
  private void writeStudyFile(String studyId, List<VersionStudyPlan.Run> done, List<String> runIds) throws IOException {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("study_id", studyId);
    root.put("seed", plan.seed());
    ArrayNode majors = root.putArray("majors");
    plan.majors().forEach(majors::add);
    root.put("repeats", plan.repeats());
    ArrayNode steps = root.putArray("steps");
    plan.steps().forEach(steps::add);
    root.put("tables", plan.tables());
    root.put("table_size", plan.tableSize());
    root.put("clients", plan.clients());
    root.put("read_duration_s", plan.readDuration().toMillis() / 1000.0);
    root.put("write_duration_s", plan.writeDuration().toMillis() / 1000.0);
    root.put("warmup_s", plan.warmup().toMillis() / 1000.0);
    ArrayNode order = root.putArray("order");
    for (int i = 0; i < done.size(); i++) {
      ObjectNode r = order.addObject();
      r.put("round", done.get(i).round());
      r.put("position", done.get(i).position());
      r.put("db_major", done.get(i).major());
      r.put("run_dir", "runs/" + done.get(i).dirName());
      r.put("run_id", runIds.get(i));
    }
    Files.writeString(out.resolve(STUDY_FILE), Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root)
        + "\n", StandardCharsets.UTF_8);
  }

  private void status(String message) {
    log.println("study: " + message);
    log.flush();
  }
}
