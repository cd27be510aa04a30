package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.WarehouseSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.junit.jupiter.api.Test;

/**
 * Every report says what it measured (issue 46.1): the scope from the runs table's rows as ingest
 * writes them, for a duet of loadgen runs, a loadgen manifest older than the server's build, and a
 * third-party run that knows little. No Spark: the rows are made here.
 */
class ScopeTest {
  private static final String CONFIGURE = "'--prefix=/usr/local/pg-build' '--with-openssl'";

  /** A runs row with these labels, dimensions and {@code metadata_json}. */
  static Row row(String runId, String format, Map<String, String> labels, String workload, Integer clients,
      String dbVersion, String metadataJson) {
    Object[] values = new Object[WarehouseSchema.RUNS.size()];
    values[WarehouseSchema.RUNS.fieldIndex(WarehouseSchema.RUN_ID)] = runId;
    values[WarehouseSchema.RUNS.fieldIndex("source_format")] = format;
    values[WarehouseSchema.RUNS.fieldIndex(WarehouseSchema.LABELS)] =
        scala.jdk.javaapi.CollectionConverters.asScala(labels);
    values[WarehouseSchema.RUNS.fieldIndex("workload")] = workload;
    values[WarehouseSchema.RUNS.fieldIndex("clients")] = clients;
    values[WarehouseSchema.RUNS.fieldIndex("db_version")] = dbVersion;
    values[WarehouseSchema.RUNS.fieldIndex("metadata_json")] = metadataJson;
    return new GenericRowWithSchema(values, WarehouseSchema.RUNS);
  }

  /**
   * A loadgen run's metadata as ingest stores it: the manifest under {@code source.manifest}; the build
   * with the blank PostgreSQL's CONFIGURE starts with.
   */
  static String loadgen(String version, String build, String synchronousCommit, String workloadJson) {
    return "{\"files\":[],\"source\":{\"manifest\":{\"run_id\":\"x\",\"workload\":" + workloadJson + ","
        + "\"mode\":{\"kind\":\"closed\",\"clients\":1,\"duration_s\":5.0,\"warmup_s\":1.0},"
        + "\"target\":{\"embedded\":true,\"server_version\":\"" + version + "\",\"settings\":{\"fsync\":\"on\","
        + "\"synchronous_commit\":\"" + synchronousCommit + "\"}" + (build == null ? "" : ",\"build\":\" " + build + "\"") + "},\"client\":{\"host\":\"vm1\",\"cpus\":2}}}}";
  }

  private static final String SYSBENCH = "{\"name\":\"sysbench\",\"parameters\":{\"tables\":1,\"table_size\":10000}}";

  static Map<String, String> duet(String round, String side, String cpus, boolean aa) {
    Map<String, String> labels = new LinkedHashMap<>(Map.of("design", "duet", "round", round, "side", side,
        "cpus", cpus, "cpu_swap", "in-window", "cpu_swap_period_ms", "100"));
    if (aa) {
      labels.put("control", "aa");
    }
    return labels;
  }

  @Test
  void aDuetSaysItsDesignRoundsSharedDiskCpusDurabilityAndBuilds() {
    List<Row> rows = List.of(
        row("aa-a", "loadgen", duet("1", "a", "0", true), "sysbench", 1, null, loadgen("PostgreSQL 14.24", CONFIGURE,
            "off", SYSBENCH)),
        row("aa-b", "loadgen", duet("1", "b", "1", true), "sysbench", 1, null, loadgen("PostgreSQL 14.24", CONFIGURE,
            "off", SYSBENCH)),
        row("r2-a", "loadgen", duet("2", "a", "0", false), "sysbench", 1, null, loadgen("PostgreSQL 14.24", CONFIGURE,
            "off", SYSBENCH)),
        row("r2-b", "loadgen", duet("2", "b", "1", false), "sysbench", 1, null, loadgen("PostgreSQL 17.6", CONFIGURE,
            "off", SYSBENCH)),
        row("r3-a", "loadgen", duet("3", "a", "0", false), "sysbench", 1, null, loadgen("PostgreSQL 17.6", CONFIGURE,
            "off", SYSBENCH)),
        row("r3-b", "loadgen", duet("3", "b", "1", false), "sysbench", 1, null, loadgen("PostgreSQL 14.24", CONFIGURE,
            "off", SYSBENCH)));
    Map<String, List<String>> groups = new LinkedHashMap<>();
    groups.put("baseline", List.of("r2-a", "r3-b"));
    groups.put("candidate", List.of("r2-b", "r3-a"));

    Scope scope = Scope.of(ScopeRun.of(rows), groups);

    assertThat(scope.fact("design")).isEqualTo("duet, CPU sets swapped in-window every 100 ms");
    assertThat(scope.fact("rounds")).isEqualTo("2");
    assertThat(scope.fact("aa_rounds")).isEqualTo("1");
    assertThat(scope.fact("shared_disk")).isEqualTo("yes: a duet, both servers at the same time on one machine (vm1)");
    assertThat(values(scope, "runs")).containsExactly("2", "2");
    assertThat(values(scope, "server")).containsExactly("PostgreSQL 14.24", "PostgreSQL 17.6");
    assertThat(values(scope, "build")).containsExactly("embedded (zonky) build", "embedded (zonky) build");
    assertThat(values(scope, "configure")).containsExactly(CONFIGURE, CONFIGURE);
    assertThat(values(scope, "cpus")).containsExactly("set 0 (1 CPU) | set 1 (1 CPU)", "set 1 (1 CPU) | set 0 (1 CPU)");
    assertThat(values(scope, "clients")).containsExactly("1", "1");
    assertThat(values(scope, "connections")).containsExactly("1", "1");
    assertThat(values(scope, "data")).containsExactly("1 table × 10000 rows", "1 table × 10000 rows");
    assertThat(values(scope, "durability")).as("what the manifests record, whoever set it").containsOnly(
        "fsync=on, synchronous_commit=off, full_page_writes=default, wal_sync_method=default");
    assertThat(values(scope, "steps")).containsOnly("5 s, warm-up 1 s");
  }

  /**
   * Issue 49: a burst's size is the tasks it lets loose at once on its pool, not clients; the scope
   * says so, and its connections are the pool's.
   */
  @Test
  void aBurstSaysItsSizeAsTasksNotClients() {
    String burst = loadgen("PostgreSQL 17.6", null, "off",
        "{\"name\":\"select-update\",\"parameters\":{\"burst_size\":1200,\"rows\":20000}}")
        .replace("\"mode\":{\"kind\":\"closed\",\"clients\":1,", "\"mode\":{\"kind\":\"burst\",\"clients\":4,");
    List<Row> rows = List.of(row("b1", "loadgen", Map.of(), "select-update", 4, null, burst));
    Scope scope = Scope.of(ScopeRun.of(rows), Map.of("baseline", List.of("b1")));
    assertThat(values(scope, "clients")).containsExactly("burst of 1200 tasks");
    assertThat(values(scope, "connections")).containsExactly("4");
  }

  /**
   * Issue 47 item 6: a sysbench study smaller than the published one says so, and where it spans 11
   * and a later major, that its point and range steps partly measure the plan cache; at the
   * published size it says nothing.
   */
  @Test
  void aSysbenchStudySmallerThanThePublishedOneSaysWhatItMeasures() {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    groups.put("11", List.of("a"));
    groups.put("16", List.of("b"));
    String mytools = "{\"name\":\"sysbench\",\"steps\":[\"point-query.warm_range=100\",\"scan_range=100\"],"
        + "\"parameters\":{\"tables\":1,\"table_size\":10000}}";
    assertThat(Scope.of(ScopeRun.of(List.of(
        row("a", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 11.22", null, "on", SYSBENCH)),
        row("b", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 16.10", null, "on", SYSBENCH)))),
        groups).fact("scale")).as("the classic sysbench steps are not the published study's").isNull();
    Scope small = Scope.of(ScopeRun.of(List.of(
        row("a", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 11.22", null, "on", mytools)),
        row("b", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 16.10", null, "on", mytools)))), groups);
    assertThat(small.fact("scale")).startsWith("10,000 rows a table at most, against the published 11→16 study's"
        + " 20,000,000: ").contains("11 turns a prepared statement generic after 5 executions");
    assertThat(small.markdown()).contains("- scale: 10,000 rows a table at most");

    Scope sameMajor = Scope.of(ScopeRun.of(List.of(
        row("a", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 16.10", null, "on", mytools)),
        row("b", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 17.6", null, "on", mytools)))), groups);
    assertThat(sameMajor.fact("scale")).startsWith("10,000 rows a table").doesNotContain("generic");

    assertThat(small.fact("scale")).endsWith("(study versions --preset published-small is closer; its --help gives the"
        + " published settings and their cost)");
    String preset = mytools.replace("10000}", "1000000}");
    assertThat(Scope.of(ScopeRun.of(List.of(
        row("a", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 11.22", null, "on", preset)),
        row("b", "loadgen", Map.of(), "sysbench", 1, null, loadgen("PostgreSQL 16.10", null, "on", preset)))), groups)
        .fact("scale")).startsWith("1,000,000 rows a table at most").doesNotContain("--preset");

    String published = mytools.replace("10000}", "20000000}");
    Scope large = Scope.of(ScopeRun.of(List.of(
        row("a", "loadgen", Map.of(), "sysbench", 8, null, loadgen("PostgreSQL 11.22", null, "on", published)),
        row("b", "loadgen", Map.of(), "sysbench", 8, null, loadgen("PostgreSQL 16.10", null, "on", published)))), groups);
    assertThat(large.fact("scale")).isNull();
  }

  @Test
  void anOlderManifestWithoutTheBuildSaysNotRecordedAndWorkloadsThatDifferAreNamed() {
    String selectUpdate = "{\"name\":\"select-update\",\"parameters\":{\"rows\":10000}}";
    List<Row> rows = List.of(
        row("s1", "loadgen", Map.of("design", "sequential", "round", "1"), "select-update", 1, null,
            loadgen("PostgreSQL 16.4", null, "on", selectUpdate)),
        row("s2", "loadgen", Map.of("design", "sequential", "round", "1"), "sysbench", 1, null,
            loadgen("PostgreSQL 16.4", null, "off", SYSBENCH)),
        row("s3", "loadgen", Map.of("design", "sequential", "round", "2"), "select-update", 1, null,
            loadgen("PostgreSQL 17.6", null, "on", selectUpdate)));

    Scope scope = Scope.of(ScopeRun.of(rows), Map.of("16", List.of("s1", "s2"), "17", List.of("s3")));

    assertThat(scope.fact("aa_rounds")).as("no duet, no a/a control").isNull();
    assertThat(scope.fact("shared_disk")).isEqualTo("no: the sides ran one after another (sequential)");
    assertThat(values(scope, "configure")).containsExactly(Scope.NOT_RECORDED, Scope.NOT_RECORDED);
    assertThat(values(scope, "cpus")).containsExactly("all of the machine's 2", "all of the machine's 2");
    assertThat(scope.lines().stream().filter(l -> l.key().equals("data")).findFirst().orElseThrow().values()
        .get(scope.groups().indexOf("16")))
        .isEqualTo("select-update: tables not recorded, 10000 rows in all; sysbench: 1 table × 10000 rows");
    assertThat(scope.lines().stream().filter(l -> l.key().equals("durability")).findFirst().orElseThrow().values()
        .get(scope.groups().indexOf("16"))).isEqualTo(
            "select-update: fsync=on, synchronous_commit=on, full_page_writes=default, wal_sync_method=default;"
            + " sysbench: fsync=on, synchronous_commit=off, full_page_writes=default, wal_sync_method=default");
  }

  @Test
  void aThirdPartyRunSaysWhatItKnowsAndNothingMore() {
    List<Row> rows = List.of(
        row("pg1", "pgbench", Map.of(), "tpcb-like", 8, "16.2", "{\"files\":[],\"facts\":{\"clients\":\"8\"}}"),
        row("csv1", "csv", Map.of("run", "x"), null, null, null, null));

    Scope scope = Scope.of(ScopeRun.of(rows), Map.of("baseline", List.of("pg1"), "candidate", List.of("csv1")));

    assertThat(scope.fact("design")).isEqualTo(Scope.NOT_RECORDED);
    assertThat(scope.fact("rounds")).isEqualTo(Scope.NOT_RECORDED);
    assertThat(scope.fact("shared_disk")).isEqualTo(Scope.NOT_RECORDED);
    Map<String, String> baseline = new LinkedHashMap<>();
    Map<String, String> candidate = new LinkedHashMap<>();
    scope.lines().forEach(l -> {
      baseline.put(l.key(), l.values().get(scope.groups().indexOf("baseline")));
      candidate.put(l.key(), l.values().get(scope.groups().indexOf("candidate")));
    });
    assertThat(baseline).containsEntry("server", "16.2").containsEntry("clients", "8")
        .containsEntry("connections", Scope.NOT_RECORDED).containsEntry("durability", Scope.NOT_RECORDED)
        .containsEntry("build", Scope.NOT_RECORDED).containsEntry("steps", Scope.NOT_RECORDED);
    assertThat(candidate).containsEntry("runs", "1");
    assertThat(candidate.entrySet().stream().filter(e -> !e.getKey().equals("runs")))
        .allMatch(e -> e.getValue().equals(Scope.NOT_RECORDED));
  }

  @Test
  void theRenderingsShowTheSameValues() {
    Scope scope = new Scope(List.of(new Scope.Fact("design", "design", "duet")), List.of("baseline", "candidate"),
        List.of(new Scope.Line("durability", "durability", List.of("synchronous_commit=off | on", "fsync=on"))));
    assertThat(scope.markdown()).contains("- design: duet\n")
        .contains("| durability | synchronous_commit=off \\| on | fsync=on |\n");
    com.fasterxml.jackson.databind.node.ObjectNode json = dev.benchlake.core.Json.mapper().createObjectNode();
    scope.json(json);
    assertThat(json.path("design").asText()).isEqualTo("duet");
    assertThat(json.path("groups").path("baseline").path("durability").asText())
        .isEqualTo("synchronous_commit=off | on");
    assertThat(scope.terminalLines()).containsExactly("Scope: design duet.",
        "  baseline: durability synchronous_commit=off | on.", "  candidate: durability fsync=on.");
  }

  /** A loadgen run's metadata whose manifest records one step's plan (or none: {@code hash} null). */
  private static String planned(String hash, String cache) {
    String plans = hash == null ? "" : ",\"step_plans\":[{\"step\":\"point-select\",\"statement\":\"SELECT c FROM t WHERE id=?\","
        + "\"plan\":\"plan " + hash + "\",\"plan_hash\":\"" + hash + "\",\"plan_cache\":\"" + cache + "\"}]";
    return "{\"source\":{\"manifest\":{\"run_id\":\"x\"" + plans + "}}}";
  }

  private static Scope planScope(String baseline, String candidate) {
    return twoRuns(Map.of(), baseline, candidate);
  }

  /** The scope of two loadgen runs with these labels, run a the baseline and run b the candidate. */
  private static Scope twoRuns(Map<String, String> labels, String baseline, String candidate) {
    List<Row> rows = List.of(row("a", "loadgen", labels, "sysbench", 1, null, baseline),
        row("b", "loadgen", labels, "sysbench", 1, null, candidate));
    Map<String, List<String>> groups = new LinkedHashMap<>();
    groups.put("baseline", List.of("a"));
    groups.put("candidate", List.of("b"));
    return Scope.of(ScopeRun.of(rows), groups);
  }

  /**
   * Issue 48 item 4: a step whose sides ran different plans (hash) or a generic plan against a custom
   * one is flagged, with both plans, in every rendering; plans that agree, and runs without plans
   * (older loadgens, other tools), say nothing.
   */
  @Test
  void aStepWhoseSidesRanDifferentPlansIsFlaggedWithBothAndOnlyThen() {
    assertThat(planScope(planned("aaaa", "custom"), planned("aaaa", "custom")).planDifferences()).isEmpty();
    assertThat(planScope(planned("aaaa", "custom"), planned(null, null)).planDifferences()).isEmpty();
    assertThat(planScope(planned("aaaa", "custom"), planned("bbbb", "custom")).planDifferences()).singleElement()
        .satisfies(d -> assertThat(d.sentence()).isEqualTo(
            "Step point-select ran different plans: baseline aaaa (custom); candidate bbbb (custom)."));
    Scope kinds = planScope(planned("aaaa", "generic"), planned("aaaa", "custom"));
    assertThat(kinds.planDifferences()).singleElement().satisfies(d -> {
      assertThat(d.sentence()).startsWith("Step point-select ran the same plan, generic against custom:");
      assertThat(d.plans()).extracting(PlanDifference.GroupPlan::plan).containsExactly("plan aaaa", "plan aaaa");
    });
    assertThat(kinds.markdown()).contains("### Plans that differ").contains("`baseline` (generic):\n\n  ```\n  plan aaaa\n  ```");
    com.fasterxml.jackson.databind.node.ObjectNode json = dev.benchlake.core.Json.mapper().createObjectNode();
    kinds.json(json);
    assertThat(json.path("plan_differences").get(0).path("plans").get(1).path("plan_cache").asText()).isEqualTo("custom");
    assertThat(kinds.terminalLines()).last().asString().startsWith("  Step point-select ran the same plan");
  }

  /**
   * A sysbench step prepares its statement once per table: the terminal gives one line for the
   * step, not one per statement (the 30-minute version study printed 20 lines for 6 steps); the
   * report keeps every statement with its plans.
   */
  @Test
  void aTerminalSaysOneLinePerStepWhoseStatementsRanDifferentPlans() {
    java.util.function.BiFunction<String, String, String> four = (hash, cache) -> {
      List<String> plans = new java.util.ArrayList<>();
      for (int t = 1; t <= 4; t++) {
        plans.add("{\"step\":\"random-points\",\"statement\":\"SELECT c FROM sbtest" + t + " WHERE id IN (?)\","
            + "\"plan\":\"plan " + hash + t + "\",\"plan_hash\":\"" + hash + t + "\",\"plan_cache\":\"" + cache
            + "\"}");
      }
      return "{\"source\":{\"manifest\":{\"run_id\":\"x\",\"step_plans\":[" + String.join(",", plans) + "]}}}";
    };
    Scope scope = planScope(four.apply("aaaa", "generic"), four.apply("bbbb", "custom"));
    assertThat(scope.planDifferences()).hasSize(4);
    assertThat(scope.terminalLines()).filteredOn(l -> l.startsWith("  Step ")).containsExactly("  Step random-points ran"
        + " different plans for 4 of its statements: baseline generic; candidate custom (the report shows each plan).");
    assertThat(scope.markdown()).contains("sbtest1").contains("sbtest4");
  }

  /**
   * Issue 47 item 5: a version study of four majors whose steps' statements differ between them is told
   * once per way they differ, naming its steps (in report.md and on the terminal), not with every
   * major's plan for every statement; the plans stay in the JSON. Two groups keep the plans in full.
   */
  @Test
  void plansThatDifferAcrossSeveralMajorsAreCollectedByHowTheyDifferNamingTheirSteps() {
    List<Row> rows = new java.util.ArrayList<>();
    Map<String, List<String>> groups = new LinkedHashMap<>();
    for (String major : List.of("11", "12", "13", "14")) {
      String cache = major.equals("11") ? "generic" : "custom";
      StringBuilder plans = new StringBuilder();
      for (String step : List.of("points-covered-si", "random-points", "scan")) {
        String hash = step.equals("scan") ? (major.equals("14") ? "bbbb" : "aaaa") : "cccc";
        plans.append(plans.isEmpty() ? "" : ",").append("{\"step\":\"").append(step).append("\",\"statement\":\"S ")
            .append(step).append("\",\"plan\":\"plan ").append(hash).append("\",\"plan_hash\":\"").append(hash)
            .append("\",\"plan_cache\":\"").append(step.equals("scan") ? "custom" : cache).append("\"}");
      }
      rows.add(row("r" + major, "loadgen", Map.of(), "sysbench", 1, null,
          "{\"source\":{\"manifest\":{\"run_id\":\"x\",\"step_plans\":[" + plans + "]}}}"));
      groups.put(major, List.of("r" + major));
    }
    Scope scope = Scope.of(ScopeRun.of(rows), groups);
    assertThat(scope.planDifferences()).hasSize(3);
    String generic = "The same plan, generic against custom (generic: 11; custom: 12, 13, 14): ";
    String hashes = "Different plans (custom: 11, 12, 13, 14): ";
    assertThat(scope.markdown()).contains("- " + generic + "`points-covered-si`, `random-points`.\n",
        "- " + hashes + "`scan`.\n").doesNotContain("plan cccc");
    assertThat(scope.terminalLines()).endsWith("  " + generic + "points-covered-si, random-points.",
        "  " + hashes + "scan.");
    com.fasterxml.jackson.databind.node.ObjectNode json = dev.benchlake.core.Json.mapper().createObjectNode();
    scope.json(json);
    assertThat(json.path("plan_differences")).hasSize(3);
    assertThat(json.path("plan_differences").get(0).path("plans")).hasSize(4);
  }

  /** A loadgen run's metadata whose manifest records one step's resources ({@code window} null: an older loadgen). */
  private static String withResources(String window, String profile) {
    return "{\"source\":{\"manifest\":{\"run_id\":\"x\",\"step_resources\":[{\"step\":\"point-select\",\"tasks\":9"
        + (window == null ? "" : ",\"window\":\"" + window + "\"") + (profile == null ? "" : ",\"profile\":" + profile)
        + "}]}}}";
  }

  /**
   * Issue 48: the scope says which window each side's resource figures cover (a run written before
   * the measured window included the warm-up) and where the server's profiles are; runs without
   * them say nothing of either.
   */
  @Test
  void theResourceFiguresWindowAndTheProfilesAreInTheScopeOnlyWhereRecorded() {
    Scope scope = planScope(withResources(null, null), withResources("measured",
        "{\"data\":\"profiles/point-select.perf.data\",\"summary\":\"profiles/point-select.txt\"}"));
    assertThat(values(scope, "resources")).containsExactly("over the whole step, warm-up included (an older loadgen)",
        "over the measured window");
    assertThat(values(scope, "profiles")).containsExactly("none",
        "1 of 1 runs: profiles/STEP.perf.data and STEP.txt beside each run's manifest");
    assertThat(values(planScope(withResources("measured", "{\"not_profiled\":\"perf not found on the PATH\"}"),
        withResources("measured", null)), "profiles")).containsExactly("not profiled: perf not found on the PATH", "none");
    assertThat(planScope(planned(null, null), planned(null, null)).lines()).extracting(Scope.Line::key)
        .doesNotContain("resources", "profiles");
  }

  /**
   * A duet run's metadata whose manifest records the in-window swap's figures for two steps (ms under
   * way of 2,000 ms windows; 20 moves each, 0.2 ms on average), or none ({@code null}: an older loadgen).
   */
  private static String swapped(double[] underWayMs, double longestMs) {
    StringBuilder steps = new StringBuilder();
    for (int i = 0; underWayMs != null && i < underWayMs.length; i++) {
      steps.append(i == 0 ? "" : ",").append(String.format(java.util.Locale.ROOT, "{\"step\":\"s%d\",\"measured_ns\":"
          + "2000000000,\"moves\":20,\"mean_move_ns\":200000,\"longest_move_ns\":%d,\"under_way_ns\":%d}", i,
          (long) (longestMs * 1e6), (long) (underWayMs[i] * 1e6)));
    }
    return "{\"source\":{\"manifest\":{\"run_id\":\"x\"" + (underWayMs == null ? "" : ",\"step_cpu_swaps\":[" + steps + "]")
        + "}}}";
  }

  private static Scope swapScope(String mover, String a, String b) {
    Map<String, String> labels = new LinkedHashMap<>(duet("1", "a", "0", false));
    if (mover != null) {
      labels.put("cpu_swap_mover", mover);
    }
    return twoRuns(labels, a, b);
  }

  /**
   * Issue 46 item 5: a duet swapped inside the window says once how the sides were moved and the share
   * of the measured time a move was under way (both sides on one set), with the largest share in a
   * step; above 5 % in a step, a warning; runs that did not record it (older loadgens) say so; runs
   * not swapped inside the window say nothing of it.
   */
  @Test
  void theTimeWithACpuSetMoveUnderWayIsSaidOnceAndWarnedOfAboveFivePercentInAStep() {
    Scope cgroup = swapScope(null, swapped(new double[] {10, 26}, 1.2), swapped(new double[] {10, 26}, 1.2));
    assertThat(cgroup.fact("cpu_moves")).isEqualTo("by cgroup cpuset groups, a move under way 0.9 % of the measured "
        + "time (at most 1.3 % in one step), 0.2 ms a move on average, at most 1.2 ms");
    assertThat(cgroup.terminalLines().get(0)).contains("; CPU-set moves by cgroup cpuset groups, a move under way 0.9 %");
    assertThat(cgroup.markdown()).contains("- CPU-set moves: by cgroup cpuset groups, a move under way 0.9 %");
    com.fasterxml.jackson.databind.node.ObjectNode json = dev.benchlake.core.Json.mapper().createObjectNode();
    cgroup.json(json);
    assertThat(json.path("cpu_moves").asText()).isEqualTo(cgroup.fact("cpu_moves"));

    assertThat(swapScope("affinity", swapped(new double[] {20, 140}, 15.6), swapped(new double[] {20, 140}, 15.6))
        .fact("cpu_moves")).isEqualTo("by thread affinity (sched_setaffinity: a plain user), a move under way 4.0 % of "
            + "the measured time (at most 7.0 % in one step), 0.2 ms a move on average, at most 15.6 ms (warning: over "
            + "5 % in a step, the sides shared one CPU set that long, which the pairing need not cancel)");
    assertThat(swapScope(null, swapped(new double[] {98}, 1), swapped(new double[] {98}, 1)).fact("cpu_moves"))
        .as("4.9 %: not over 5 %").doesNotContain("warning");
    assertThat(swapScope(null, swapped(null, 0), swapped(null, 0)).fact("cpu_moves"))
        .isEqualTo("by cgroup cpuset groups, the time with a move under way not recorded");
    assertThat(swapScope(null, swapped(new double[] {10, 26}, 1.2), swapped(null, 0)).fact("cpu_moves"))
        .endsWith("at most 1.2 ms (not recorded for 1 of 2 runs)");
    assertThat(planScope(planned(null, null), planned(null, null)).fact("cpu_moves")).as("not swapped in-window").isNull();
  }

  private static List<String> values(Scope scope, String key) {
    return scope.lines().stream().filter(l -> l.key().equals(key)).findFirst().orElseThrow().values();
  }

  /** A duet run's runs row whose manifest profiled point-select at 1000 Hz, its folder {@code /study/runs/NAME}. */
  private static Row profiled(String name, String round, String side, String top) {
    Row row = row(name, "loadgen", duet(round, side, "0", false), "sysbench", 1, null,
        withResources("measured", "{\"data\":\"profiles/point-select.perf.data\",\"summary\":"
            + "\"profiles/point-select.txt\",\"hz\":1000,\"samples\":900,\"top\":" + top + "}"));
    Object[] values = new Object[WarehouseSchema.RUNS.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(i);
    }
    values[WarehouseSchema.RUNS.fieldIndex("source_files")] = scala.jdk.javaapi.CollectionConverters.asScala(List.of(
        (Row) new GenericRowWithSchema(new Object[] {"/study/runs/" + name + "/manifest.json", "00", 1L},
            WarehouseSchema.SOURCE_FILE))).toSeq();
    return new GenericRowWithSchema(values, WarehouseSchema.RUNS);
  }

  private static String top(String... symbolsAndShares) {
    List<String> each = new java.util.ArrayList<>();
    for (int i = 0; i < symbolsAndShares.length; i += 2) {
      each.add("{\"share\":" + symbolsAndShares[i + 1] + ",\"dso\":\"postgres\",\"symbol\":\"" + symbolsAndShares[i]
          + "\"}");
    }
    return "[" + String.join(",", each) + "]";
  }

  /**
   * Issue 48 item 5: a study's profiled runs are linked from the report per step, group, round and
   * side, and each group's top functions are shown side by side with their difference (a function
   * outside a run's top 10 counting 0 there); the scope says the rate and that both sides were
   * profiled alike, or that they were not.
   */
  @Test
  void aStudysProfilesAreLinkedPerRoundAndSideWithTheTopFunctionsSideBySide() {
    List<Row> rows = List.of(
        profiled("r1-a", "1", "a", top("ExecScan", "30.0", "hash_search", "10.0", "palloc", "4.0")),
        profiled("r2-a", "2", "a", top("ExecScan", "20.0", "hash_search", "12.0", "AllocSetAlloc", "2.0")),
        profiled("r1-b", "1", "b", top("ExecScan", "10.0", "BuildCachedPlan", "40.0")),
        row("r2-b", "loadgen", duet("2", "b", "1", false), "sysbench", 1, null, withResources("measured", null)));
    Map<String, List<String>> groups = new LinkedHashMap<>();
    groups.put("baseline", List.of("r1-a", "r2-a"));
    groups.put("candidate", List.of("r1-b", "r2-b"));
    Scope scope = Scope.of(ScopeRun.of(rows), groups);

    assertThat(values(scope, "profiles")).containsExactly(
        "2 of 2 runs at 1000 Hz: profiles/STEP.perf.data and STEP.txt beside each run's manifest",
        "1 of 2 runs at 1000 Hz: profiles/STEP.perf.data and STEP.txt beside each run's manifest");
    assertThat(scope.fact("profiled")).startsWith("not every run profiled at one rate (1000 Hz): perf's cost");
    StepProfiles p = scope.profiles().get(0);
    assertThat(p.step()).isEqualTo("point-select");
    assertThat(p.groups()).extracting(StepProfiles.Group::about).containsExactly("2 runs at 1000 Hz", "1 run at 1000 Hz");
    assertThat(p.groups().get(0).runs()).extracting(StepProfiles.Run::name, StepProfiles.Run::summaryUri)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("round 1, side a",
            "file:///study/runs/r1-a/profiles/point-select.txt"), org.assertj.core.groups.Tuple.tuple("round 2, side a",
            "file:///study/runs/r2-a/profiles/point-select.txt"));
    // Means: a ExecScan 25, hash_search 11, palloc 2, AllocSetAlloc 1; b BuildCachedPlan 40, ExecScan 10.
    assertThat(p.top()).extracting(StepProfiles.Function::symbol).containsExactly("BuildCachedPlan", "ExecScan",
        "hash_search", "palloc", "AllocSetAlloc");
    assertThat(p.top().get(0).shares()).containsExactly("—", "40.0%");
    assertThat(p.top().get(0).difference()).isEqualTo("+40.0 pp");
    assertThat(p.top().get(1).shares()).containsExactly("25.0%", "10.0%");
    assertThat(p.top().get(1).difference()).isEqualTo("-15.0 pp");
    assertThat(scope.markdown()).contains("### Server CPU profiles",
        "- `baseline` (2 runs at 1000 Hz): [round 1, side a](file:///study/runs/r1-a/profiles/point-select.txt), "
            + "[round 2, side a](file:///study/runs/r2-a/profiles/point-select.txt)",
        "| `ExecScan` (postgres) | 25.0% | 10.0% | -15.0 pp |");
    com.fasterxml.jackson.databind.node.ObjectNode json = dev.benchlake.core.Json.mapper().createObjectNode();
    scope.json(json);
    assertThat(json.path("profiles").get(0).path("top").get(1).path("shares").path("candidate").asText())
        .isEqualTo("10.0%");
    assertThat(json.path("profiles").get(0).path("groups").path("candidate").path("runs").get(0).path("run").asText())
        .isEqualTo("round 1, side b");

    Scope alike = Scope.of(ScopeRun.of(rows.subList(0, 3)), Map.of("baseline", List.of("r1-a", "r2-a"), "candidate",
        List.of("r1-b")));
    assertThat(alike.fact("profiled")).isEqualTo("every run at 1000 Hz, both sides alike (perf's cost, a few µs of"
        + " server CPU a sample, is the same on both)");
    assertThat(planScope(planned(null, null), planned(null, null)).profiles()).isEmpty();
  }
}
