package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class StepMessagesTest {
  private static final List<String> STEPS = List.of("scan_range=100", "insert_range=100", "point-query_range=100");

  @Test
  void aTextSaidOfEveryStepIsWrittenOnceWhereItFirstStood() {
    List<String> messages = List.of(
        "3 selected run(s) have no db_major and are left out: a, b, c.",
        "step scan_range=100: its change points leave out db_major 13.",
        "step insert_range=100: its change points leave out db_major 13.",
        "step point-query_range=100: its change points leave out db_major 13.",
        "the last one");
    assertThat(StepMessages.fold(messages, STEPS)).containsExactly(
        "3 selected run(s) have no db_major and are left out: a, b, c.",
        "every step (3): its change points leave out db_major 13.",
        "the last one");
  }

  @Test
  void aTextOfSomeStepsNamesThemInOrderAndOneStepsOwnTextStaysAsItWas() {
    List<String> messages = List.of(
        "step scan_range=100: no change points, as its complete pairs leave 3 runs.",
        "step point-query_range=100: its change points leave out db_major 13.",
        "step insert_range=100: its change points leave out db_major 13.",
        "step scan_range=100, db_major 12: a run has qps = 0, so its geometric mean is 0 and it has no interval.",
        "step insert_range=100, db_major 12: a run has qps = 0, so its geometric mean is 0 and it has no interval.");
    assertThat(StepMessages.fold(messages, STEPS)).containsExactly(
        "step scan_range=100: no change points, as its complete pairs leave 3 runs.",
        "steps insert_range=100, point-query_range=100: its change points leave out db_major 13.",
        // A step and a version: not one of the steps' names, kept word for word.
        "step scan_range=100, db_major 12: a run has qps = 0, so its geometric mean is 0 and it has no interval.",
        "step insert_range=100, db_major 12: a run has qps = 0, so its geometric mean is 0 and it has no interval.");
  }

  @Test
  void aStepWhoseNameHoldsTheSeparatorIsToldByTheLongestKnownName() {
    List<String> steps = List.of("odd: name", "other");
    List<String> messages = List.of("step odd: name: said.", "step other: said.");
    assertThat(StepMessages.fold(messages, steps)).containsExactly("every step (2): said.");
  }
}
