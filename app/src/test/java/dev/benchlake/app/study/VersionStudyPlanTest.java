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

  @Test
  void refusesFewerThanTwoMajorsDuplicatesAndNoRounds() {
    assertThatThrownBy(() -> plan(List.of(14), 2, 1)).hasMessageContaining("two different");
    assertThatThrownBy(() -> plan(List.of(14, 14), 2, 1)).hasMessageContaining("two different");
    assertThatThrownBy(() -> plan(List.of(14, 17), 0, 1)).hasMessageContaining("--rounds");
    assertThat(plan(List.of(16, 11), 1, 1).base()).isEqualTo("16");
  }
}
