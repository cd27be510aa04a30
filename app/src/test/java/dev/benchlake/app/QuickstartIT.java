package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.app.study.Workload;
import dev.benchlake.app.study.duet.InWindowGroupWatch;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README's first command, shrunk: the quickstart end to end through the real command line, as a
 * new user gets it (a duet of 14 and 17 with its a/a control, run until decided; here at most 3
 * rounds, so it stops at its only look, and the fewest a/a rounds, 2). Where cpuset groups can be
 * made (root), the sides' groups are watched while it runs ({@link InWindowGroupWatch}: the in-window
 * swap as the kernel saw it).
 */
@org.junit.jupiter.api.Tag("integration")
class QuickstartIT {
  /** select-update's burst: 1,200 tasks, as in the 2016 study. */
  private static final int BURST = 1200;

  @Test
  void runsTheWholeChainAndWritesTheReports(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("qs");
    // As root, the quickstart swaps its sides' CPU sets inside each step by cgroup groups: watched as it runs.
    Optional<InWindowGroupWatch> groups = InWindowGroupWatch.startWhereGroupsCanBeMade();
    CommandRun run;
    try {
      run = CommandRun.of(Benchlake.commandLine(), "quickstart", "--out", out.toString(), "--max-rounds", "3",
          "--aa-rounds", "2",
          "--step-duration", "300ms", "--warmup", "100ms", "--master", "local[2]", "--verbose");
    } finally {
      if (groups.isPresent()) {
        groups.get().finish();
      }
    }
    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.OK);
    if (groups.isPresent()) {
      groups.get().assertMovedTogether(out, run.stderr());
    }

    // 2 a/a rounds (14 | 14) spread among 3 rounds of 14 | 17, each a pair per workload: 20 runs in
    // all, ingested at once when the study stopped (its looks read the run files).
    try (Stream<Path> runs = Files.list(out.resolve("runs"))) {
      List<String> names = runs.map(p -> p.getFileName().toString()).sorted().toList();
      assertThat(names).hasSize(20);
      assertThat(names).filteredOn(n -> n.contains("-aa-")).hasSize(8).allMatch(n -> n.contains("-pg14-"));
      assertThat(names).filteredOn(n -> !n.contains("-aa-") && n.endsWith("-b")).hasSize(6)
          .allMatch(n -> n.contains("-pg17-"));
    }
    assertThat(java.util.regex.Pattern.compile("quickstart: ingested (\\d+) runs").matcher(run.stderr()).results()
        .mapToInt(m -> Integer.parseInt(m.group(1))).boxed().toList()).containsExactly(20);
    // The stopping look, read from the run files, gave the report's calls and θs (RunFileLook).
    assertThat(run.stderr()).doesNotContain("disagree");
    assertThat(run.stderr()).contains(", 0 lines rejected")
        .contains("study: look after round 3 of at most 3").contains("the a/a control: PostgreSQL 14 against itself");

    // The sides' JVMs are warmed up for both kinds of pair in turn, pass by pass, before the first
    // measured pair: as the rounds alternate them (DuetPair.WARM_UP_PASSES = 3). Each pass is
    // --verbose's detail; the line before them and the one after are said without it too.
    List<String> lines = run.stderr().lines().toList();
    assertThat(lines).contains("study: warming up the sides' JVMs: 3 passes of 2 kinds of pair (not kept)")
        .anyMatch(l -> l.startsWith("study: warmed up in "));
    List<String> warmUps = lines.stream().filter(l -> l.startsWith("    warming up the sides' JVMs"))
        .map(String::strip).toList();
    String sysbench = "sysbench-point-select-read-only-update-index-insert";
    assertThat(warmUps).containsExactly(
        "warming up the sides' JVMs: select-update, pass 1 of 3 (not kept)",
        "warming up the sides' JVMs: " + sysbench + ", pass 1 of 3 (not kept)",
        "warming up the sides' JVMs: select-update, pass 2 of 3 (not kept)",
        "warming up the sides' JVMs: " + sysbench + ", pass 2 of 3 (not kept)",
        "warming up the sides' JVMs: select-update, pass 3 of 3 (not kept)",
        "warming up the sides' JVMs: " + sysbench + ", pass 3 of 3 (not kept)");
    int lastWarmUp = -1;
    int firstMeasured = -1;
    for (int i = 0; i < lines.size(); i++) {
      lastWarmUp = lines.get(i).contains("warming up the sides' JVMs") ? i : lastWarmUp;
      firstMeasured = firstMeasured < 0 && lines.get(i).contains("both sides at once") ? i : firstMeasured;
    }
    assertThat(lastWarmUp).as("warmed up before the first measured pair").isBetween(0, firstMeasured);

    // select-update: warm-up bursts (one on this machine), then two measured bursts, the first at
    // the shared window's start on both sides, or, when the side's warm-up burst drained after it
    // (a loaded machine), right after that.
    List<Path> selectUpdateRuns;
    try (Stream<Path> runs = Files.list(out.resolve("runs"))) {
      selectUpdateRuns = runs.filter(p -> p.getFileName().toString().contains("-select-update-")).sorted().toList();
    }
    assertThat(selectUpdateRuns).hasSize(10);
    assertThat(Workload.SelectUpdate.DEFAULT.burst()).isEqualTo(BURST);
    for (Path dirOfRun : selectUpdateRuns) {
      String side = dirOfRun.getFileName().toString();
      RunManifest m = RunManifest.read(RunDirectory.manifest(dirOfRun));
      // Issue 46: the pair's CPU-set moves in the step's window, in both sides' manifests.
      assertThat(m.stepCpuSwaps()).as(side + ": the moves in each step's window").isNotEmpty();
      assertThat(m.mode().tasks()).isEqualTo(2L * BURST);
      assertThat(m.mode().warmupS()).isEqualTo(1.0);
      List<TaskRecord> tasks = Files.readAllLines(RunDirectory.tasks(dirOfRun), StandardCharsets.UTF_8).stream()
          .skip(1).map(TaskCsv::parse).toList();
      Map<Boolean, Map<Long, List<TaskRecord>>> bursts = tasks.stream()
          .collect(Collectors.partitioningBy(TaskRecord::warmup, Collectors.groupingBy(TaskRecord::seq)));
      assertThat(bursts.get(true)).as(side + ": warm-up bursts").isNotEmpty()
          .allSatisfy((seq, burst) -> assertThat(burst).hasSize(BURST));
      assertThat(bursts.get(false)).as(side + ": measured bursts").hasSize(2)
          .allSatisfy((seq, burst) -> assertThat(burst).hasSize(BURST));
      long lastWarmUpEnd = bursts.get(true).values().stream().flatMap(List::stream).mapToLong(TaskRecord::endNs).max()
          .orElseThrow();
      long firstMeasuredStart = bursts.get(false).values().stream().flatMap(List::stream)
          .mapToLong(TaskRecord::intendedStartNs).min().orElseThrow();
      long windowStart = m.stepWindows().get(0).measuredFromEpochNs() - m.originEpochNs();
      assertThat(firstMeasuredStart - Math.max(windowStart, lastWarmUpEnd)).as(side + ": first measured burst, ns late")
          .isBetween(0L, 100_000_000L);
    }

    // Issue 46.2: both sides share this machine's one disk, so a duet's servers commit without
    // waiting for its flushes, and every run's manifest says so.
    try (Stream<Path> runs = Files.list(out.resolve("runs"))) {
      assertThat(runs.toList()).hasSize(20).allSatisfy(dirOfRun -> assertThat(
          RunManifest.read(RunDirectory.manifest(dirOfRun)).target().settings())
          .as(dirOfRun.getFileName().toString()).containsEntry("synchronous_commit", "off"));
    }

    // Issue 49: each side vacuums its tables between the sysbench steps, outside the windows, so that no
    // step starts on the dead tuples of the steps before it.
    try (Stream<Path> runs = Files.list(out.resolve("runs"))) {
      assertThat(runs.filter(p -> p.getFileName().toString().contains("-sysbench-")).toList()).hasSize(10)
          .allSatisfy(dirOfRun -> assertThat(RunManifest.read(RunDirectory.manifest(dirOfRun)).betweenSteps())
              .as(dirOfRun.getFileName().toString()).isEqualTo("vacuum-analyze"));
    }

    JsonNode study = Json.mapper().readTree(out.resolve("study.json").toFile());
    assertThat(study.get("design").asText()).isEqualTo("duet");
    assertThat(study.get("until_decided").get("stopped_after_round").asInt()).isEqualTo(3);
    assertThat(study.get("order")).hasSize(20);

    JsonNode report = Json.mapper().readTree(out.resolve("compare/report.json").toFile());
    assertThat(report.get("design").asText()).isEqualTo("duet");
    assertThat(report.get("baseline").get("selector").asText()).isEqualTo("db_major=14,control!=aa");
    assertThat(report.get("candidate").get("selector").asText()).isEqualTo("db_major=17,control!=aa");
    // The only look is the last: it decides at what is left of alpha, 0.05 (one look).
    assertThat(report.get("alpha").asDouble()).isEqualTo(0.05);
    assertThat(report.get("sequential").get("stopped_after_round").asInt()).isEqualTo(3);
    JsonNode aa = report.get("controls").get("aa");
    assertThat(aa.get("unit").asText()).isEqualTo("round");
    assertThat(aa.get("rounds").asInt()).as("its unit: the round, both its workloads' steps weighing the same")
        .isEqualTo(2);
    assertThat(aa.get("measurements").asInt()).as("2 rounds x 2 workloads, each measured at its own moment")
        .isEqualTo(4);
    assertThat(aa.get("pairs").asInt()).as("2 rounds x 5 steps").isEqualTo(10);
    assertThat(aa.get("cpu_set_fitted").asBoolean()).as("1 round on each assignment of the CPU sets: too few to fit")
        .isFalse();
    assertThat(aa.get("verdict").asText()).isIn("faster", "slower", "equivalent", "inconclusive");
    assertThat(aa.get("reliable").asBoolean()).isEqualTo(aa.get("verdict").asText().equals("equivalent"));
    // The interval shown beside the control's verdict is the one it rests on: TOST's, within the margin iff equivalent.
    double margin = aa.get("margin").asDouble();
    boolean insideMargin = aa.get("ci_equivalence").get(0).asDouble() > 1 / (1 + margin)
        && aa.get("ci_equivalence").get(1).asDouble() < 1 + margin;
    assertThat(insideMargin).as(aa.toString()).isEqualTo(aa.get("verdict").asText().equals("equivalent"));
    assertThat(aa.get("equivalence_confidence").asDouble()).isEqualTo(1 - 2 * report.get("alpha").asDouble(), within(1e-9));
    assertThat(out.resolve("aa/report.json")).isNotEmptyFile();
    assertThat(report.get("steps")).extracting(s -> s.get("step").asText())
        .containsExactlyInAnyOrder("insert", "point-select", "read-only", "select-update", "update-index");
    for (JsonNode step : report.get("steps")) {
      assertThat(step.get("run_level").get("analysis").asText()).isEqualTo("paired");
      // ... so no step's sides differ in dead tuples at its start; autovacuum during a step is still flagged.
      assertThat(step.get("confounders").isArray()).as(step.get("step").asText()).isTrue();
      assertThat(step.get("confounders")).as(step.get("step").asText())
          .noneMatch(c -> c.get("kind").asText().equals("dead_tuples"));
      // Each pair names its sides' CPU sets; 3 rounds leave one assignment with a single pair: not fitted.
      JsonNode pairs = step.get("run_level").get("pairs");
      assertThat(pairs.get("pairs").get(0).get("baseline_cpus").asText())
          .isNotEqualTo(pairs.get("pairs").get(0).get("candidate_cpus").asText());
      assertThat(pairs.get("cpu_set_ratio").isNull()).isTrue();
      // Beside a paired result, no two-stage bootstrap: it resamples the sides apart (issue 46 item 7).
      assertThat(step.get("run_level").get("two_stage_bootstrap_ci95")).as("no bounds")
          .allMatch(JsonNode::isNull);
      assertThat(step.get("verdict").asText()).isIn("faster", "slower", "equivalent", "inconclusive");
      assertThat(step.get("run_level").get("ratio").isNumber()).as(step.get("step").asText()).isTrue();
      // The stdout table shows the same figures as report.json, and θ is read as a change only
      // when its interval is narrow enough to mean one.
      Range ci = new Range(step.get("run_level").get("ci95").get(0).asDouble(),
          step.get("run_level").get("ci95").get(1).asDouble());
      assertThat(run.stdout()).containsPattern("\\| `" + step.get("step").asText()
          + "` \\| " + (ci.tooNoisyToSay() ? "too noisy to say" : "[-+]\\d") + ".* \\| 3 pairs \\|");
    }
    // The last lines give the answer (issue 49): after the table and the scope, before the paths.
    String answer = switch (report.get("controls").get("aa").get("state").asText()) {
      case "confirmed" -> "Calls: ";
      case "too short" -> "Control too short to confirm the method: ";
      default -> "Unreliable: ";
    };
    List<String> stdout = run.stdout().lines().toList();
    int answerAt = stdout.indexOf(stdout.stream().filter(l -> l.startsWith(answer)).findFirst().orElseThrow());
    int tableAt = stdout.indexOf("| step | change (θ) | 95% interval | verdict | runs | pairs needed |");
    assertThat(tableAt).as("the summary table's header on stdout").isNotNegative();
    assertThat(answerAt).isGreaterThan(tableAt)
        .isLessThan(stdout.indexOf(stdout.stream().filter(l -> l.startsWith("Comparison report: ")).findFirst()
            .orElseThrow()));
    assertThat(stdout.get(stdout.size() - 1)).matches("Done in \\d+ s; .*qs holds \\d.* [kMG]?B\\.");
    assertThat(run.stdout()).contains("Run until decided: Haybittle");
    assertThat(run.stdout()).doesNotContainIgnoringCase("no significant difference")
        .doesNotContain("no_significant_difference");
    assertThat(run.stdout()).contains("| step | change (θ) | 95% interval | verdict | runs | pairs needed |")
        .contains("Comparison report: " + out.resolve("compare/report.html").toAbsolutePath().normalize())
        .contains("Trend report:      " + out.resolve("trend/trend.html").toAbsolutePath().normalize());
    for (String file : List.of("compare/report.md", "compare/report.html", "trend/trend.json", "trend/trend.md",
        "trend/trend.html")) {
      assertThat(out.resolve(file)).as(file).isNotEmptyFile();
    }
    assertThat(Files.readString(out.resolve("compare/report.html"), StandardCharsets.UTF_8))
        // The command that makes the report again; the template escapes '=' as every input character that HTML could misread.
        .contains("benchlake compare --warehouse")        // The selectors are quoted for the shell ('!' would be history expansion).
        .contains("--baseline &#39;db_major&#x3D;14,control!&#x3D;aa&#39; --candidate &#39;db_major&#x3D;17,control!&#x3D;aa&#39;");

    // The trend: every step's throughput at 17 relative to 14, from the same runs.
    JsonNode trend = Json.mapper().readTree(out.resolve("trend/trend.json").toFile());
    assertThat(trend.get("by").asText()).isEqualTo("db_major");
    assertThat(trend.get("base").asText()).isEqualTo("14");
    assertThat(trend.get("versions")).extracting(JsonNode::asText).containsExactly("14", "17");
    assertThat(trend.get("steps")).extracting(s -> s.get("step").asText())
        .containsExactlyInAnyOrder("insert", "point-select", "read-only", "select-update", "update-index");
    for (JsonNode step : trend.get("steps")) {
      assertThat(step.get("relative").get("14").asDouble()).isEqualTo(1.0);
      assertThat(step.get("relative").get("17").asDouble()).as(step.get("step").asText()).isPositive();
    }
    threePagesOneStory(out, report, trend);

    // Every report says what it measured (issue 46.1), from the runs' manifests: the duet, its rounds
    // and a/a rounds, the shared disk, each side's server, build, CPU set, durability and steps.
    JsonNode scope = report.get("scope");
    assertThat(scope.get("design").asText()).startsWith("duet, CPU sets swapped ");
    assertThat(scope.get("rounds").asText()).isEqualTo("3");
    assertThat(scope.get("aa_rounds").asText()).isEqualTo("2");
    assertThat(scope.get("shared_disk").asText()).startsWith("yes: a duet, both servers at the same time on one machine");
    for (String side : List.of("baseline", "candidate")) {
      JsonNode of = scope.get("groups").get(side);
      assertThat(of.get("server").asText()).startsWith(side.equals("baseline") ? "PostgreSQL 14." : "PostgreSQL 17.");
      assertThat(of.get("build").asText()).isEqualTo("embedded (zonky) build");
      assertThat(of.get("configure").asText()).contains("--prefix");
      assertThat(of.get("cpus").asText()).containsPattern("set \\S+ \\(\\d+ CPUs?\\)");
      assertThat(of.get("durability").asText()).contains("fsync=on").contains("synchronous_commit=")
          .contains("full_page_writes=").contains("wal_sync_method=").doesNotContain(Scope.NOT_RECORDED);
      assertThat(of.get("steps").asText()).contains("warm-up 100 ms");
    }
    assertThat(Files.readString(out.resolve("compare/report.md"), StandardCharsets.UTF_8)).contains("## Scope")
        .contains("| build | embedded (zonky) build | embedded (zonky) build |");
    assertThat(Files.readString(out.resolve("compare/report.html"), StandardCharsets.UTF_8))
        .contains("<section class=\"panel scope\" id=\"scope\">");
    assertThat(run.stdout()).contains("Scope: design duet, CPU sets swapped ").contains("  baseline: runs 6; ")
        .as("the scope's moves (issue 46)").contains("CPU-set moves by cgroup cpuset groups, a move under way ")
        .contains("  candidate: runs 6; ");
    assertThat(trend.get("scope").get("groups").get("17").get("server").asText()).startsWith("PostgreSQL 17.");
    assertThat(Files.readString(out.resolve("trend/trend.md"), StandardCharsets.UTF_8)).contains("## Scope");

        // Running it again replaces its own folder; a foreign non-empty folder is refused.
    Path foreign = Files.createDirectories(dir.resolve("foreign"));
    Files.writeString(foreign.resolve("notes.txt"), "mine");
    assertThat(Benchlake.commandLine().execute("quickstart", "--out", foreign.toString())).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(foreign.resolve("notes.txt")).exists();
  }

  /**
   * Issue 49: the study's three pages tell one story. compare/ and aa/ give the control the same
   * figure, interval and sentence, aa/ leading with it; every step's figure and interval are the
   * same in report.json, report.md and report.html; trend/ makes its calls at the comparison's α and,
   * as its figure is another (qps, least squares), says so on each of its pages.
   */
  private static void threePagesOneStory(Path out, JsonNode report, JsonNode trend) throws Exception {
    String md = Files.readString(out.resolve("compare/report.md"), StandardCharsets.UTF_8);
    String html = Files.readString(out.resolve("compare/report.html"), StandardCharsets.UTF_8);
    assertThat(md).startsWith("# benchlake compare: PostgreSQL 17 against 14\n\n");
    assertThat(html).contains("<title>PostgreSQL 17 against 14 · benchlake</title>");
    for (JsonNode step : report.get("steps")) {
      JsonNode level = step.get("run_level");
      Range ci = new Range(level.get("ci95").get(0).asDouble(), level.get("ci95").get(1).asDouble());
      String interval = dev.benchlake.analysis.report.Format.changeInterval(ci);
      String name = step.get("step").asText();
      assertThat(md).as(name).containsPattern("\\| `" + java.util.regex.Pattern.quote(name) + "` \\| [^|]* \\| "
          + java.util.regex.Pattern.quote(interval) + " \\| \\*\\*" + step.get("verdict").asText());
      assertThat(html).as(name).contains("<td>" + interval + "</td>");
    }

    JsonNode control = report.get("controls").get("aa");
    JsonNode aaReport = Json.mapper().readTree(out.resolve("aa/report.json").toFile());
    JsonNode own = aaReport.get("controls").get("aa");
    for (String field : List.of("ratio", "ci", "ci_equivalence", "verdict", "state", "sentence")) {
      assertThat(own.get(field)).as("aa/ and compare/ give the control the same " + field).isEqualTo(control.get(field));
    }
    assertThat(Files.readString(out.resolve("aa/report.md"), StandardCharsets.UTF_8))
        .startsWith("# benchlake compare: a/a control: side b against a\n\n" + control.get("sentence").asText()
            + " Per step (descriptive: ");

    assertThat(trend.get("alpha").asDouble()).as("the trend calls at the comparison's α")
        .isEqualTo(report.get("alpha").asDouble());
    assertThat(trend.get("design").asText()).isEqualTo("duet");
    String reason = trend.get("comparison").asText();
    assertThat(reason).contains("qps").contains("median latency").contains("The study's calls are the comparison's.");
    assertThat(Files.readString(out.resolve("trend/trend.md"), StandardCharsets.UTF_8)).contains("> " + reason);
    assertThat(Files.readString(out.resolve("trend/trend.html"), StandardCharsets.UTF_8))
        .contains("<p class=\"note comparison\">" + reason.replace("'", "&#39;") + "</p>");
  }
}
