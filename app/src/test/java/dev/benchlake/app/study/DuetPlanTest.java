package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** A duet's plan: its rounds, its a/a control, its CPU sets swapped every round, its runs' labels (issue 28.1, 28.2). */
class DuetPlanTest {
  private static final DuetCpus HALVES = DuetCpus.choose(CpuList.parse("0-3"), null, null);

  @Test
  void theControlsRoundsGoWhereTheSeedSaysAndEachKindCountsItsOwn() {
    List<DuetSchedule.Round> order = new DuetSchedule(5, 2, 42).order();
    assertThat(order).extracting(DuetSchedule.Round::round).containsExactly(1, 2, 3, 4, 5, 6, 7);
    assertThat(order.stream().filter(DuetSchedule.Round::aa)).extracting(DuetSchedule.Round::ofKind).containsExactly(1, 2);
    assertThat(order.stream().filter(r -> !r.aa())).extracting(DuetSchedule.Round::ofKind)
        .containsExactly(1, 2, 3, 4, 5);
    assertThat(new DuetSchedule(5, 2, 42).order()).as("the seed reproduces it").isEqualTo(order);
    assertThat(java.util.stream.LongStream.range(0, 20).mapToObj(seed -> new DuetSchedule(5, 2, seed).order()
        .stream().filter(DuetSchedule.Round::aa).map(DuetSchedule.Round::round).toList()).distinct().count())
        .as("the control's rounds are not always in the same places").isGreaterThan(3);
    assertThatThrownBy(() -> new DuetSchedule(5, 1, 1)).hasMessageContaining("--aa-rounds must be at least 2");
    assertThatThrownBy(() -> new DuetSchedule(5, 0, 1)).hasMessageContaining("--aa-rounds");
  }

  @Test
  void theSetsAreHalvesOrWhatIsGivenDisjointAndSwappedEveryRound() {
    assertThat(HALVES.one()).hasToString("0-1");
    assertThat(HALVES.two()).hasToString("2-3");
    assertThat(List.of(HALVES.sideA(1), HALVES.sideB(1), HALVES.sideA(2), HALVES.sideB(2), HALVES.sideA(3)))
        .extracting(CpuList::toString).containsExactly("0-1", "2-3", "2-3", "0-1", "0-1");
    assertThat(DuetCpus.choose(CpuList.parse("0-1"), null, null)).isEqualTo(new DuetCpus(CpuList.parse("0"),
        CpuList.parse("1")));
    assertThat(DuetCpus.choose(CpuList.parse("0-7"), "0,2", null).two()).hasToString("1,3-7");
    assertThat(DuetCpus.choose(CpuList.parse("0-7"), null, "6-7").one()).hasToString("0-5");
    assertThat(DuetCpus.choose(CpuList.parse("0-7"), "0-1", "4-5")).isEqualTo(new DuetCpus(CpuList.parse("0-1"),
        CpuList.parse("4-5")));
  }

  @Test
  void aMachineWithOneCpuAndSetsThatOverlapOrLeaveTheMachineAreRefused() {
    assertThatThrownBy(() -> DuetCpus.choose(CpuList.parse("3"), null, null)).isInstanceOf(BadInputException.class)
        .hasMessage("--design duet runs both sides at once, each on CPUs of its own, and this machine has 1 CPU (3): "
            + "use --design interleaved");
    assertThatThrownBy(() -> DuetCpus.choose(CpuList.parse("0-3"), "0-1", "1-2"))
        .hasMessageContaining("share CPUs");
    assertThatThrownBy(() -> DuetCpus.choose(CpuList.parse("0-3"), "0-7", null))
        .hasMessageContaining("--cpus-a 0-7 is not within this process's CPUs (0-3)");
    assertThatThrownBy(() -> DuetCpus.choose(CpuList.parse("0-3"), "0-3", null)).hasMessageContaining("takes every CPU");
    assertThatThrownBy(() -> DuetCpus.choose(CpuList.parse("0-3"), "x", null)).hasMessageContaining("--cpus-a 'x'");
  }

  @Test
  void runUntilDecidedTheControlsRoundsAllComeBeforeTheFirstLook() {
    for (long seed = 0; seed < 30; seed++) {
      List<DuetSchedule.Round> order = new DuetSchedule(10, 3, seed, 3).order();
      assertThat(order).hasSize(13);
      assertThat(order.subList(0, 5)).as("seed " + seed).filteredOn(DuetSchedule.Round::aa).hasSize(3);
      assertThat(order.subList(5, 13)).extracting(DuetSchedule.Round::ofKind).containsExactly(3, 4, 5, 6, 7, 8, 9, 10);
    }
    assertThat(java.util.stream.LongStream.range(0, 20).mapToObj(seed -> new DuetSchedule(10, 2, seed, 3).order()
        .subList(0, 4)).distinct().count()).as("the seed places the control among the first rounds").isGreaterThan(1);
    assertThat(new DuetSchedule(5, 2, 42, 0).order()).as("a fixed duet as before").isEqualTo(new DuetSchedule(5, 2, 42)
        .order());
  }

  @Test
  void aSideByUrlIsDescribedWithoutItsPassword() {
    String canary = "Canary-7f3e9";
    for (String url : List.of("jdbc:postgresql://u:" + canary + "@db:5432/x", "jdbc:postgresql://db/x?password=" + canary)) {
      assertThat(new AbStudyPlan.Side(new LoadgenConfig.External(url, "u")).describe()).as(url)
          .doesNotContain(canary).contains("db");
    }
  }

  private static AbStudyPlan abPlan(Design design) {
    return new AbStudyPlan(new AbStudyPlan.Side(new LoadgenConfig.Embedded(14, Map.of(), null)),
        new AbStudyPlan.Side(new LoadgenConfig.Embedded(17, Map.of("jit", "off"), null)),
        new AbStudyPlan.Side(new LoadgenConfig.Embedded(14, Map.of(), null)), design, 3, 2, 7,
        new Workload.Sysbench(List.of("point-select"), 1, 1000, 2, Duration.ofSeconds(1), null, null,
            Duration.ZERO), design == Design.DUET ? HALVES : null, null);
  }

  @Test
  void betweenStepsGoesToBothSidesOfEveryRound() {
    AbStudyPlan plain = abPlan(Design.DUET);
    assertThat(plain.workload().betweenSteps()).isEqualTo(BetweenSteps.NONE);
    AbStudyPlan vacuumed = new AbStudyPlan(plain.a(), plain.b(), plain.aaSecond(), Design.DUET, 3, 2, 7,
        new Workload.Sysbench(List.of("point-select"), 1, 1000, 2, Duration.ofSeconds(1), null, null, Duration.ZERO,
            BetweenSteps.VACUUM_ANALYZE), HALVES, null);
    for (StudyRuns.Measurement m : vacuumed.measurements(Path.of("/s"), "ab-1")) {
      StudyRuns.Pair p = (StudyRuns.Pair) m;
      assertThat(p.a().config().betweenSteps()).isEqualTo(BetweenSteps.VACUUM_ANALYZE);
      assertThat(p.b().config().betweenSteps()).isEqualTo(BetweenSteps.VACUUM_ANALYZE);
    }
    CommandRun bad = CommandRun.of(Cli.commandLine(new StudyCommand()), "ab", "--between-steps", "vacuum",
        "--out", "/nonexistent/never");
    assertThat(bad.exitCode()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(bad.stderr()).contains("--between-steps 'vacuum': use none, analyze, vacuum-analyze or checkpoint");
  }

  @Test
  void anAbDuetsClientsDefaultToASidesCpusSoThatNoQueryQueuesForOne() {
    assertThat(SysbenchOptions.clients(null, DuetCpus.choose(CpuList.parse("0-1"), null, null))).isEqualTo(1);
    assertThat(SysbenchOptions.clients(null, HALVES)).isEqualTo(2);
    assertThat(SysbenchOptions.clients(null, DuetCpus.choose(CpuList.parse("0-7"), "0", null))).as("the smaller side")
        .isEqualTo(1);
    assertThat(SysbenchOptions.clients(null, null)).as("interleaved, sequential: a side has the machine").isEqualTo(4);
    assertThat(SysbenchOptions.clients(6, HALVES)).as("the user's").isEqualTo(6);
  }

  @Test
  void anAbDuetPairsTheSidesOfEveryRoundWithTheirLabelsAndTheControlRunsTheBaselineTwice() {
    List<StudyRuns.Measurement> plan = abPlan(Design.DUET).measurements(Path.of("/s"), "ab-1");
    assertThat(plan).hasSize(5).allMatch(m -> m instanceof StudyRuns.Pair);
    for (StudyRuns.Measurement m : plan) {
      StudyRuns.Pair p = (StudyRuns.Pair) m;
      Map<String, String> a = p.a().config().labels();
      Map<String, String> b = p.b().config().labels();
      assertThat(a).containsEntry("design", "duet").containsEntry("side", "a").containsEntry("study_id", "ab-1")
          .containsEntry("source", "study-ab").containsEntry("cpus", p.a().cpus().toString());
      assertThat(b).containsEntry("design", "duet").containsEntry("side", "b").containsEntry("round", a.get("round"))
          .containsEntry("cpus", p.b().cpus().toString());
      assertThat(p.a().cpus().intersects(p.b().cpus())).isFalse();
      // Both sides of a round load the same data.
      assertThat(p.a().config().randomSeed()).isEqualTo(p.b().config().randomSeed());
      boolean aa = a.containsKey("control");
      assertThat(b.containsKey("control")).isEqualTo(aa);
      assertThat(((LoadgenConfig.Embedded) p.a().config().target()).major()).isEqualTo(14);
      assertThat(((LoadgenConfig.Embedded) p.b().config().target()).major()).isEqualTo(aa ? 14 : 17);
      assertThat(p.b().config().outDir().getFileName().toString()).isEqualTo("r" + a.get("round") + (aa ? "-aa" : "")
          + "-b");
    }
    // Side a's set alternates over the comparison's rounds, and over the control's.
    Map<Boolean, List<String>> setsOfA = plan.stream().map(m -> (StudyRuns.Pair) m).collect(Collectors.groupingBy(
        p -> p.a().config().labels().containsKey("control"), Collectors.mapping(p -> p.a().cpus().toString(),
            Collectors.toList())));
    assertThat(setsOfA.get(false)).containsExactly("0-1", "2-3", "0-1");
    assertThat(setsOfA.get(true)).containsExactly("0-1", "2-3");
  }

  @Test
  void interleavedAndSequentialAbStudiesRunTheSidesAloneWithTheirDesign() {
    List<StudyRuns.Measurement> interleaved = abPlan(Design.INTERLEAVED).measurements(Path.of("/s"), "ab-1");
    assertThat(interleaved).hasSize(6).allMatch(m -> m instanceof StudyRuns.Alone);
    List<Map<String, String>> labels = interleaved.stream()
        .<Map<String, String>>map(m -> ((StudyRuns.Alone) m).config().labels()).toList();
    assertThat(labels).allSatisfy(l -> assertThat(l).containsEntry("design", "interleaved").doesNotContainKey("cpus")
        .doesNotContainKey("control"));
    for (int round = 1; round <= 3; round++) {
      String r = Integer.toString(round);
      assertThat(labels.subList(2 * round - 2, 2 * round)).extracting(l -> l.get("round")).containsOnly(r);
      assertThat(labels.subList(2 * round - 2, 2 * round)).extracting(l -> l.get("side")).containsExactlyInAnyOrder("a", "b");
    }
    List<StudyRuns.Measurement> sequential = abPlan(Design.SEQUENTIAL).measurements(Path.of("/s"), "ab-1");
    assertThat(sequential).extracting(m -> ((StudyRuns.Alone) m).config().labels().get("side"))
        .containsExactly("a", "a", "a", "b", "b", "b");
  }

  @Test
  void aVersionDuetPairsEveryOtherMajorWithTheBaseAndItsControlIsTheBaseTwice() {
    VersionStudyPlan plan = new VersionStudyPlan(List.of(11, 14, 17), 2, 3, new Workload.Sysbench(List.of("mytools"), 4,
        1000, 8, null, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ZERO), Map.of("jit", "off"), null,
        Design.DUET, 2, HALVES, null);
    List<StudyRuns.Pair> pairs = plan.measurements(Path.of("/s"), "v-1").stream().map(m -> (StudyRuns.Pair) m).toList();
    // 2 rounds x 2 pairs, and 2 a/a rounds of one pair.
    assertThat(pairs).hasSize(6);
    assertThat(pairs).extracting(p -> p.a().config().labels().get("pair") + ":" + p.a().config().labels()
        .getOrDefault("control", "-")).containsExactlyInAnyOrder("11v14:-", "11v17:-", "11v14:-", "11v17:-", "11v11:aa",
            "11v11:aa");
    assertThat(pairs).allSatisfy(p -> {
      assertThat(((LoadgenConfig.Embedded) p.a().config().target()).major()).isEqualTo(11);
      assertThat(((LoadgenConfig.Embedded) p.a().config().target()).settings()).containsEntry("jit", "off");
      assertThat(p.b().config().labels().get("pair")).isEqualTo(p.a().config().labels().get("pair"));
    });
  }
}
