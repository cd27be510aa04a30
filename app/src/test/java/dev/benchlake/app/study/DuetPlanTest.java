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
    DuetSchedule.Round onOne = new DuetSchedule.Round(1, false, 1, true);
    DuetSchedule.Round onTwo = new DuetSchedule.Round(2, false, 2, false);
    assertThat(List.of(HALVES.sideA(onOne), HALVES.sideB(onOne), HALVES.sideA(onTwo), HALVES.sideB(onTwo)))
        .extracting(CpuList::toString).containsExactly("0-1", "2-3", "2-3", "0-1");
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

  /**
   * Issue 46 item 6: the control's rounds spread through the study, one in each of {@code aaRounds}
   * equal stretches, run until decided or not (they used to come all before the first look, and saw
   * only the study's first minutes).
   */
  @Test
  void theControlsRoundsAreSpreadThroughTheStudyOneInEachStretch() {
    java.util.Set<List<Integer>> placements = new java.util.HashSet<>();
    for (long seed = 0; seed < 200; seed++) {
      for (int firstLook : new int[] {0, 3}) {
        List<DuetSchedule.Round> order = new DuetSchedule(12, 6, seed, firstLook).order();
        assertThat(order).hasSize(18);
        List<Integer> places = order.stream().filter(DuetSchedule.Round::aa).map(DuetSchedule.Round::round).toList();
        for (int stretch = 0; stretch < 6; stretch++) {
          int from = 3 * stretch + 1;
          assertThat(places).as("seed %d, rounds %d to %d", seed, from, from + 2)
              .filteredOn(p -> p >= from && p <= from + 2).hasSize(1);
        }
        placements.add(places);
      }
      List<DuetSchedule.Round> order = new DuetSchedule(12, 6, seed, 3).order();
      assertThat(order.subList(12, 18)).as("seed %d: a control round in the study's last third", seed)
          .anyMatch(DuetSchedule.Round::aa);
    }
    assertThat(placements).as("the seed draws the places").hasSizeGreaterThan(100);
    assertThat(new DuetSchedule(12, 6, 9, 3).controlAfter(0)).hasSize(6);
    assertThat(new DuetSchedule(12, 6, 9, 3).controlAfter(18)).isEmpty();
  }

  /**
   * Issue 46 item 7: each kind's CPU sets in blocks of two rounds, one each way, which first drawn
   * from the seed (strict alternation before): any 2k rounds of a kind have k each way, so the
   * crossover fit has its two pairs each way from round 4 on; the comparison's sets do not depend on
   * the number of a/a rounds.
   */
  @Test
  void theCpuSetsComeInBalancedBlocksInAnOrderTheSeedDraws() {
    java.util.Set<List<Boolean>> orders = new java.util.HashSet<>();
    for (long seed = 0; seed < 200; seed++) {
      List<DuetSchedule.Round> order = new DuetSchedule(12, 6, seed, 3).order();
      for (boolean aa : new boolean[] {false, true}) {
        List<Boolean> sets = order.stream().filter(r -> r.aa() == aa).map(DuetSchedule.Round::aOnSetOne).toList();
        for (int block = 0; block + 1 < sets.size(); block += 2) {
          assertThat(sets.get(block)).as("seed %d, %s block %d", seed, aa ? "a/a" : "comparison", block / 2)
              .isNotEqualTo(sets.get(block + 1));
        }
        if (!aa) {
          orders.add(sets);
        }
      }
      assertThat(new DuetSchedule(12, 6, seed, 3).order()).as("the seed reproduces it").isEqualTo(order);
      assertThat(new DuetSchedule(12, 2, seed, 3).order().stream().filter(r -> !r.aa())
          .map(DuetSchedule.Round::aOnSetOne).toList()).as("the comparison's sets whatever --aa-rounds")
          .isEqualTo(order.stream().filter(r -> !r.aa()).map(DuetSchedule.Round::aOnSetOne).toList());
    }
    assertThat(orders).as("not one fixed order: 2^6 possible").hasSizeGreaterThan(40);
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
    // Side a's set is the schedule's draw, one each way in the first two rounds of each kind.
    Map<Boolean, List<String>> setsOfA = plan.stream().map(m -> (StudyRuns.Pair) m).collect(Collectors.groupingBy(
        p -> p.a().config().labels().containsKey("control"), Collectors.mapping(p -> p.a().cpus().toString(),
            Collectors.toList())));
    assertThat(plan.stream().map(m -> ((StudyRuns.Pair) m).a().cpus().toString()).toList())
        .isEqualTo(abPlan(Design.DUET).schedule().order().stream().map(r -> r.aOnSetOne() ? "0-1" : "2-3").toList());
    assertThat(setsOfA.get(false).subList(0, 2)).containsExactlyInAnyOrder("0-1", "2-3");
    assertThat(setsOfA.get(true)).containsExactlyInAnyOrder("0-1", "2-3");
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
