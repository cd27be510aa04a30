package dev.benchlake.analysis.confounders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.analysis.report.Sides;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class TableHealthConfoundersTest {
  private final Map<String, Map<String, StepHealthRecord>> health = new TreeMap<>();

  private void record(String run, String step, long live, long dead, Integer vacuumed, Integer analyzed) {
    health.computeIfAbsent(run, r -> new TreeMap<>())
        .put(step, new StepHealthRecord(run, step, live, dead, vacuumed, analyzed, "none"));
  }

  private List<Confounder> between(String step, List<String> a, List<String> b) {
    return new TableHealthConfounders(health, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD)
        .between(step, Sides.of("16", "17"), Sides.of(a, b));
  }

  @Test
  void deadTuplesAtTheStartThatDifferBeyondTheThresholdAreFlaggedWithTheirFigures() {
    record("a1", "point-select", 10_000, 0, 0, 0);
    record("a2", "point-select", 10_000, 200, 0, 0);
    record("b1", "point-select", 10_000, 11_800, 0, 0);
    List<Confounder> c = between("point-select", List.of("a1", "a2"), List.of("b1"));
    assertThat(c).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo("dead_tuples");
      // (0 + 200/10200)/2 = 0.0098; 11800/21800 = 0.5413
      assertThat(x.detail()).isEqualTo("dead-tuple fraction at the step's start: 16 mean 0.010 over 2 runs"
          + " (0.000–0.020), 17 0.541 (11800 dead of 21800 tuples); they differ by 0.531, more than 0.050.");
    });
    assertThat(Confounder.mark(c)).isEqualTo("confounded: dead_tuples");
  }

  @Test
  void aDifferenceAtTheThresholdIsNotFlaggedAndIdenticalStatesGiveNoFlagAtAll() {
    record("a", "s", 9_500, 500, 0, 0); // 0.05
    record("b", "s", 10_000, 0, 0, 0); // 0.00
    assertThat(between("s", List.of("a"), List.of("b"))).isEmpty();
    record("c", "s", 9_499, 501, 0, 0); // 0.0501
    assertThat(between("s", List.of("c"), List.of("b"))).extracting(Confounder::kind).containsExactly("dead_tuples");
    assertThat(Confounder.mark(between("s", List.of("a"), List.of("b")))).isNull();
  }

  @Test
  void autovacuumOrAutoanalyzeOnOneSideOnlyIsFlaggedBothSidesOrNeitherIsNot() {
    record("a", "w", 1_000, 0, 0, 0);
    record("b", "w", 1_000, 0, 2, 1);
    record("c", "w", 1_000, 0, 1, 0);
    List<Confounder> c = between("w", List.of("a"), List.of("b", "c"));
    assertThat(c).extracting(Confounder::kind).containsExactly("autovacuum", "autoanalyze");
    assertThat(c.get(0).detail()).isEqualTo("autovacuum ran during the step in 2 of 17's 2 runs (3 tables), in none of"
        + " 16's 1 run.");
    assertThat(c.get(1).detail()).contains("1 of 17's 2 runs (1 table)");
    assertThat(between("w", List.of("b"), List.of("c"))).extracting(Confounder::kind).containsExactly("autoanalyze");
  }

  @Test
  void runsWithoutTableHealthAreNotRecordedNeverClean() {
    record("a", "s", 1_000, 0, 0, 0);
    List<Confounder> none = between("s", List.of("x", "y"), List.of("z"));
    assertThat(none).singleElement().satisfies(x -> {
      assertThat(x.kind()).isEqualTo("not_recorded");
      assertThat(x.flags()).isFalse();
      assertThat(x.detail()).isEqualTo("table health not recorded for all 2 runs of 16 and the run of 17.");
    });
    assertThat(Confounder.mark(none)).as("no flag").isNull();
    assertThat(Confounder.notRecorded(none)).isTrue();
    assertThat(between("s", List.of("a"), List.of("z"))).extracting(Confounder::kind).containsExactly("not_recorded");
    record("b", "s", 1_000, 900, 0, 0);
    assertThat(between("s", List.of("a"), List.of("b", "z"))).extracting(Confounder::kind)
        .as("a partly recorded side: the rules on the runs that have it, and what is missing")
        .containsExactly("not_recorded", "dead_tuples");
  }

  @Test
  void theThresholdMustBeAFraction() {
    assertThatThrownBy(() -> new TableHealthConfounders(health, 1.0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TableHealthConfounders(health, -0.1)).isInstanceOf(IllegalArgumentException.class);
  }
}
