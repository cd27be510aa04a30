package dev.benchlake.app.quickstart;

import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.app.study.duet.InterruptShares;
import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.loadgen.Loadgen;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.Design;
import dev.benchlake.app.study.RoundByRound;
import dev.benchlake.app.study.CutShortException;
import dev.benchlake.app.study.StudyFile;
import dev.benchlake.app.study.StudyLabels;
import dev.benchlake.app.study.StudyRuns;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.Json;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.LoadgenDefaults;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;

/**
 * The whole chain on one machine: loadgen runs against embedded PostgreSQL of several majors,
 * ingest into a fresh warehouse, then the comparison and the version trend. Each stage uses the
 * same Java API as its command, so the quickstart shows exactly what the commands do.
 */
public final class Quickstart {
  /** The runs' {@code source} label. */
  public static final String SOURCE = "quickstart";
  /** The design and the order the runs ran in. */
  public static final String STUDY_FILE = StudyFile.NAME;

  private final QuickstartPlan plan;
  private final QuickstartLayout layout;
  private final PrintWriter log;

  public Quickstart(QuickstartPlan plan, QuickstartLayout layout, PrintWriter log) {
    this.plan = plan;
    this.layout = layout;
    this.log = log;
  }

  /** What the quickstart produced. */
  public record Outcome(Warehouse warehouse, ComparisonReport comparison, TrendReport trend, List<Path> runDirs,
      CutShort cutShort) {}

  /**
   * Checks everything a user can get wrong, starting and writing nothing: the output folder, and
   * each workload's loadgen options on each major ({@link Loadgen#validate}: its embedded binaries
   * among them; a major without them ran a whole a/a round before it failed).
   */
  public void validate() {
    layout.check();
    Path probe = layout.runs().resolve("validate");
    for (int major : plan.majors()) {
      for (String workload : QuickstartPlan.WORKLOADS) {
        Loadgen.validate(config(workload, major, probe, Map.of(), QuickstartPlan.SEED));
      }
    }
  }

  /**
   * Runs everything; {@code spark} is created only once the load is done (it would compete for CPU),
   * or, run until decided, at the first look.
   */
  public Outcome run(Supplier<SparkSession> spark) throws IOException, InterruptedException {
    validate();
    layout.prepare();
    if (plan.cpus() != null) {
      InterruptShares.sayIfUneven(plan.cpus(), log);
    }
    Supplier<Warehouse> openWarehouse = () -> Warehouse.at(spark.get(), layout.warehouse().toString());
    RoundByRound.Ingest ingestRuns = (w, runs) -> ingest(w, runs.stream().map(StudyRuns.Done::dir).toList());
    StudyFile file = new StudyFile(layout.root());
    writeStudyFile(file, List.of(), null);
    StudyRuns runner = new StudyRuns(layout.root(), log, file);
    try {
      RoundByRound.Ran ran;
      try (runner) {
        ran = plan.looks() == null
            ? RoundByRound.fixedRounds(runner, measurements(), d -> writeStudyFile(file, d, null), openWarehouse,
                ingestRuns, StatisticsSettings.DEFAULTS)
            : new RoundByRound(runner, this::duetRound, all -> writeStudyFile(file, all, null), openWarehouse,
                ingestRuns, RoundByRound.Decide.byComparing((w, at) -> ChainStages.compare(w,
                    plan.selectorOf(baseMajor()), plan.selectorOf(candidateMajor()), THRESHOLD, at)))
                .untilDecided(plan.duetSchedule(), plan.looks(), log, (all, s) -> writeStudyFile(file, all, s));
      }
      CutShort cut = ran.cutShort();
      if (cut != null) {
        stage(cut.sentence());
        if (ran.done().stream().allMatch(StudyRuns::isAaControl)) {
          throw new CutShortException(cut, "No comparison round completed: nothing to compare.");
        }
      }
      boolean aaRan = ran.done().stream().anyMatch(StudyRuns::isAaControl);
      ComparisonReport comparison = compare(ran.warehouse(), ran.settings(), ran.stop(), cut, aaRan);
      List<Path> runDirs = ran.done().stream().map(StudyRuns.Done::dir).toList();
      TrendReport trend = trend(ran.warehouse(), cut);
      if (cut == null) {
        file.complete();
      }
      return new Outcome(ran.warehouse(), comparison, trend, runDirs, cut);
    } finally {
      runner.ended();
    }
  }

  /** Latency above this counts as an error in the comparison. */
  private static final Duration THRESHOLD = Duration.ofSeconds(5);

  private int baseMajor() {
    return plan.majors().get(0);
  }

  private int candidateMajor() {
    return plan.majors().get(plan.majors().size() - 1);
  }

  /**
   * Every run on a server of its own (a fresh cluster and start; loadgen starts and stops it): runs
   * that share a server start share its caches and state, so they would replicate less than they
   * seem to (issue 13.9). Each manifest records its server start. A duet runs both majors' runs of
   * a workload at once, each side a process of its own on its own CPU set ({@link StudyRuns}).
   */
  private List<StudyRuns.Measurement> measurements() {
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    if (this.plan.design() != Design.DUET) {
      for (QuickstartPlan.Run run : this.plan.schedule()) {
        plan.add(new StudyRuns.Alone(String.format(Locale.ROOT, "PostgreSQL %d, run %d of %d: %s", run.major(),
            run.round(), this.plan.runs(), run.workload()), config(run.workload(), run.major(),
            layout.runs().resolve(run.dirName()), StudyLabels.of(null, SOURCE, Design.INTERLEAVED, run.round(), null,
                false, null), 20_161_129L + run.major())));
      }
      return plan;
    }
    for (DuetSchedule.Round r : this.plan.duetSchedule().order()) {
      plan.addAll(duetRound(r));
    }
    return plan;
  }

  /** A duet round: one pair per workload, both majors at once (the baseline on both sides in an a/a round). */
  private List<StudyRuns.Measurement> duetRound(DuetSchedule.Round r) {
    List<StudyRuns.Measurement> pairs = new ArrayList<>();
    int base = baseMajor();
    int candidate = this.plan.majors().get(1);
    CpuList setA = this.plan.cpus().sideA(r.ofKind());
    CpuList setB = this.plan.cpus().sideB(r.ofKind());
    int other = r.aa() ? base : candidate;
    for (String workload : QuickstartPlan.WORKLOADS) {
      String name = "r" + r.round() + (r.aa() ? "-aa" : "") + "-" + workload;
      // Both sides load the same data; a new draw each round.
      long seed = QuickstartPlan.SEED + r.round();
      pairs.add(new StudyRuns.Pair(String.format(Locale.ROOT, "round %d%s, %s: PostgreSQL %d | %d", r.round(),
          r.aa() ? " (a/a control)" : "", workload, base, other),
          new SideRun("a", config(workload, base, layout.runs().resolve(name + "-pg" + base + "-a"),
              duetLabels(r, "a", setA, workload), seed), setA),
          new SideRun("b", config(workload, other, layout.runs().resolve(name + "-pg" + other + "-b"),
              duetLabels(r, "b", setB, workload), seed), setB), this.plan.cpus().swap()));
    }
    return pairs;
  }

  /** A duet run's labels; {@code pair} names the workload, since each round holds one pair of each. */
  private static Map<String, String> duetLabels(DuetSchedule.Round r, String side, CpuList set, String workload) {
    Map<String, String> labels = StudyLabels.of(null, SOURCE, Design.DUET, r.round(), side, r.aa(), set);
    labels.put(StudyLabels.PAIR, workload);
    return labels;
  }

  private LoadgenConfig config(String workload, int major, Path dir, Map<String, String> labels, long seed) {
    LoadgenConfig.Builder common = LoadgenConfig.builder()
        .target(new LoadgenConfig.Embedded(major, Map.of(), null))
        .outDir(dir)
        .randomSeed(seed)
        .labels(labels);
    if (workload.equals("select-update")) {
      return common
          .workload("select-update")
          .scale(plan.selectUpdate().scale())
          .mode(LoadgenConfig.Mode.burst(plan.selectUpdate().burst(), plan.selectUpdate().pool(),
              LoadgenDefaults.POOL_TIMEOUT))
          .warmup(plan.selectUpdate().warmup())
          .tasks(plan.selectUpdate().measuredTasks())
          .build();
    }
    return common
        .workload("sysbench")
        .steps(plan.sysbenchSteps())
        .tables(1)
        .tableSize(10_000)
        .mode(LoadgenConfig.Mode.closed(plan.clients()))
        .duration(plan.stepDuration())
        .warmup(plan.warmup())
        .build();
  }

  /** quickstart/study.json: the design, its CPU sets and controls, and the order the runs ran in. */
  private void writeStudyFile(StudyFile file, List<StudyRuns.Done> done, SequentialStop stop) {
    ObjectNode root = Json.mapper().createObjectNode();
    StudyRuns.design(root, plan.design(), plan.runs(), plan.design() == Design.DUET ? plan.duetSchedule() : null,
        plan.cpus());
    StudyRuns.untilDecided(root, plan.looks(), stop);
    StudyRuns.order(root, layout.root(), done);
    file.write(root);
  }

  private void ingest(Warehouse warehouse, List<Path> runDirs) throws IOException {
    ChainStages.ingestLoadgenRuns(warehouse, runDirs, layout.warehouse(), this::stage);
  }

  /**
   * The comparison of the last major with the first, at {@code settings}; a duet's with its a/a
   * control (compared first, into {@code aa/}), and a study run until decided with the look
   * it stopped at.
   */
  private ComparisonReport compare(Warehouse warehouse, StatisticsSettings settings, SequentialStop stop, CutShort cut,
      boolean aaRan) {
    int base = baseMajor();
    int candidate = candidateMajor();
    AaControl control = null;
    if (plan.design() == Design.DUET && aaRan) {
      stage("the a/a control: PostgreSQL " + base + " against itself over " + plan.aaRounds() + " rounds");
      String aa = StudyLabels.CONTROL + "=" + StudyLabels.AA;
      ComparisonReport aaReport = ChainStages.writeCompare(warehouse, aa + "," + StudyLabels.SIDE + "=a",
          aa + "," + StudyLabels.SIDE + "=b", THRESHOLD, StatisticsSettings.DEFAULTS,
          r -> cut == null ? r : r.withCutShort(cut), layout.aa());
      control = AaControl.of(aaReport, StatisticsSettings.DEFAULTS);
      if (control != null) {
        stage(control.sentence());
      }
    }
    stage("comparing PostgreSQL " + candidate + " with " + base);
    AaControl theControl = control;
    return ChainStages.writeCompare(warehouse, plan.selectorOf(base), plan.selectorOf(candidate), THRESHOLD, settings,
        r -> {
          ComparisonReport withControl = theControl == null ? r : r.withAaControl(theControl);
          ComparisonReport withStop = stop == null ? withControl : withControl.withSequentialStop(stop);
          return cut == null ? withStop : withStop.withCutShort(cut);
        }, layout.compare());
  }

  /** Throughput per step across the majors, relative to the first (the trend of every major run). */
  private TrendReport trend(Warehouse warehouse, CutShort cut) {
    String base = Integer.toString(plan.majors().get(0));
    stage("trend of qps by PostgreSQL major, relative to " + base);
    return ChainStages.writeTrend(warehouse, QuickstartPlan.BY, base, "qps", plan.trendWhere(), StatisticsSettings.DEFAULTS,
        r -> cut == null ? r : r.withCutShort(cut), layout.trend());
  }

  private void stage(String message) {
    log.println("quickstart: " + message);
    log.flush();
  }
}
