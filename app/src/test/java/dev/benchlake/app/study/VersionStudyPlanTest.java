package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class VersionStudyPlanTest {
  private static VersionStudyPlan plan(List<Integer> majors, int repeats, long seed) {
    return new VersionStudyPlan(majors, repeats, seed, new Workload.Sysbench(List.of("mytools"), 4, 1000, 1, null,
        Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO), Map.of(), null, Design.INTERLEAVED, 2, null,
        null);
  }

  @Test
  void everyRoundRunsEveryMajorOnceInAnOrderTheSeedDecides() {
    List<Integer> majors = List.of(11, 12, 13, 14, 15, 16, 17);
    List<VersionStudyPlan.Run> schedule = plan(majors, 5, 42).runOrder();
    assertThat(schedule).hasSize(35);
    Map<Integer, List<VersionStudyPlan.Run>> byRound = schedule.stream()
        .collect(Collectors.groupingBy(VersionStudyPlan.Run::round));
    assertThat(byRound).hasSize(5);
    byRound.values().forEach(round -> {
      assertThat(round).extracting(VersionStudyPlan.Run::major).containsExactlyInAnyOrderElementsOf(majors);
      assertThat(round).extracting(VersionStudyPlan.Run::position).containsExactly(1, 2, 3, 4, 5, 6, 7);
    });
    // Rounds run one after another, and the order is not the same every round.
    assertThat(schedule).extracting(VersionStudyPlan.Run::round).isSorted();
    assertThat(byRound.values().stream().map(r -> r.stream().map(VersionStudyPlan.Run::major).toList()).distinct())
        .hasSizeGreaterThan(1);
    assertThat(plan(majors, 5, 42).runOrder()).as("the seed reproduces the order").isEqualTo(schedule);
    assertThat(plan(majors, 5, 43).runOrder()).isNotEqualTo(schedule);
    assertThat(schedule.get(0).dirName()).matches("r1-pg1[1-7]");
  }

  /**
   * A duet of three majors (issue 47, item 4): every comparison round runs 11 against 14 and 11
   * against 17, in an order the seed shuffles, and study.json records per round the pairs in the
   * order they run, the seed, and what the comparisons between neighbours rest on (no pairs of
   * their own); an a/a round is the base against itself.
   */
  @Test
  void aDuetOfThreeMajorsRecordsEachRoundsPairsInTheOrderTheyRunAndTheSeed(@org.junit.jupiter.api.io.TempDir
      java.nio.file.Path dir) throws Exception {
    VersionStudyPlan duet = new VersionStudyPlan(List.of(11, 14, 17), 6, 47, new Workload.Sysbench(
        List.of("point-query_range=100"), 1, 1000, 1, null, Duration.ofMillis(300), Duration.ofMillis(300),
        Duration.ZERO), Map.of(), null, Design.DUET, 2,
        dev.benchlake.app.study.duet.DuetCpus.choose(dev.benchlake.core.CpuList.parse("0-1"), null, null), null);
    var byRound = duet.byRound(dir.resolve("runs"), "versions-x");
    List<List<String>> ran = new java.util.ArrayList<>();
    for (var round : duet.schedule().order()) {
      ran.add(byRound.apply(round).stream().map(m -> ((StudyRuns.Pair) m).b().config().labels()
          .get(StudyLabels.PAIR)).toList());
    }
    StudyFile file = new StudyFile(dir);
    file.record(duet, "versions-x", List.of(), null);
    var pairs = dev.benchlake.core.Json.mapper().readTree(file.path().toFile()).get("duet_pairs");
    assertThat(pairs.get("seed").asLong()).isEqualTo(47);
    assertThat(pairs.get("base").asInt()).isEqualTo(11);
    assertThat(pairs.get("neighbours").asText()).contains("no pairs of its own", "ratio of 17's ratio");
    assertThat(pairs.get("by_round")).hasSize(8);
    List<List<String>> recorded = new java.util.ArrayList<>();
    pairs.get("by_round").forEach(r -> {
      List<String> names = new java.util.ArrayList<>();
      r.get("pairs").forEach(p -> names.add(p.asText()));
      recorded.add(names);
      assertThat(r.has("control")).as("round %s", r.get("round")).isEqualTo(names.equals(List.of("11v11")));
    });
    assertThat(recorded).as("what study.json says is what runs, round by round").isEqualTo(ran);
    assertThat(ran).filteredOn(r -> r.size() == 2).hasSize(6)
        .allSatisfy(r -> assertThat(r).containsExactlyInAnyOrder("11v14", "11v17"));
    assertThat(ran.stream().filter(r -> r.size() == 2).distinct()).as("the seed shuffles the pairs").hasSize(2);
  }

  /** {@code --pg-setting 17:NAME=VALUE} sets NAME on 17's servers alone, and wins there; a major not in --pg is refused. */
  @Test
  void aSettingPrefixedWithAMajorGoesToThatMajorsServersAlone() {
    Workload.Sysbench workload = new Workload.Sysbench(List.of("point-query_range=100"), 1, 1000, 1, null,
        Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ZERO);
    VersionStudyPlan plan = new VersionStudyPlan(List.of(14, 17), 2, 1, workload, Map.of("work_mem", "8MB",
        "17:enable_indexscan", "off", "17:work_mem", "16MB"), null, Design.INTERLEAVED, 2, null, null);
    assertThat(plan.settingsOf(14)).containsExactlyInAnyOrderEntriesOf(Map.of("work_mem", "8MB"));
    assertThat(plan.settingsOf(17)).containsExactlyInAnyOrderEntriesOf(Map.of("work_mem", "16MB",
        "enable_indexscan", "off"));
    assertThat(plan.config(17, 1, java.nio.file.Path.of("r1"), Map.of()).target())
        .isEqualTo(new dev.benchlake.loadgen.LoadgenConfig.Embedded(17, plan.settingsOf(17), null));
    assertThatThrownBy(() -> new VersionStudyPlan(List.of(14, 17), 2, 1, workload, Map.of("16:enable_indexscan",
        "off"), null, Design.INTERLEAVED, 2, null, null)).hasMessageStartingWith(
        "--pg-setting 16:enable_indexscan=off: '16' is not one of the majors of --pg (14,17)");
  }

  @Test
  void refusesFewerThanTwoMajorsDuplicatesAndNoRounds() {
    assertThatThrownBy(() -> plan(List.of(14), 2, 1)).hasMessageContaining("two different");
    assertThatThrownBy(() -> plan(List.of(14, 14), 2, 1)).hasMessageContaining("two different");
    assertThatThrownBy(() -> plan(List.of(14, 17), 0, 1)).hasMessageContaining("--rounds");
    assertThat(plan(List.of(16, 11), 1, 1).base()).isEqualTo("16");
  }
}
