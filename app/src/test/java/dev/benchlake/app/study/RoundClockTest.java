package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.app.study.duet.DuetSchedule;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The status line and the budget's check count the same rounds, and say a wait in one format (issue 49). */
class RoundClockTest {
  /** Comparison rounds 3 and 4, with one a/a control round between them. */
  private static final List<DuetSchedule.Round> REST = List.of(new DuetSchedule.Round(4, false, 3, true),
      new DuetSchedule.Round(5, true, 2, false), new DuetSchedule.Round(6, false, 4, true));

  @Test
  void theStatusLineAndTheBudgetCountTheSameStepRounds() {
    RoundClock clock = new RoundClock(5);
    clock.ran(5, 10_000_000_000L);
    clock.ran(5, 15_000_000_000L);
    clock.looked(7_000_000_000L);
    // 2.5 s a step: rounds 3 and 4 with 3 open steps, and one control round with all 5.
    assertThat(clock.secondsLeft(3, 4, 3, REST)).isEqualTo(2.5 * (2 * 3 + 5));
    // The budget: the next comparison round, the same control round, and a look.
    assertThat(clock.nanosBeforeStopping(3, REST)).isEqualTo((long) (2.5e9 * (3 + 5)) + 7_000_000_000L);
    assertThat(clock.nanosBeforeStopping(3, REST))
        .isEqualTo((long) (clock.secondsLeft(4, 4, 3, REST) * 1e9) + 7_000_000_000L);

    StringWriter log = new StringWriter();
    clock.progress(new PrintWriter(log), 3, 4, 3, 5, REST, Double.POSITIVE_INFINITY);
    assertThat(log.toString().strip()).isEqualTo("study: round 3 of at most 4: 3 of 5 steps open, about 28 s left");
  }

  @Test
  void aWaitReadsToTheSecondInTheOneFormatForIt() {
    assertThat(Format.minutes(250.4)).isEqualTo("4 min 10 s");
    assertThat(Format.minutes(49.6)).isEqualTo("50 s");
    assertThat(Format.minutes(60)).isEqualTo("1 min 0 s");
    assertThat(Budget.words(java.time.Duration.ofMinutes(30))).isEqualTo("30 min 0 s");
    StringWriter log = new StringWriter();
    new RoundClock(5).progress(new PrintWriter(log), 1, 12, 5, 5, REST, Double.POSITIVE_INFINITY);
    assertThat(log.toString().strip()).endsWith("5 of 5 steps open, time left known after the first round");
  }

  /**
   * Under a budget that ends before the rounds would, the line gives what is left of the budget: a
   * six-major study's first rounds read "about 193 min 9 s left" in a 2-hour budget. A budget that
   * ends after them leaves the rounds' estimate, and before the first round the budget is all there is.
   */
  @Test
  void aBudgetThatEndsFirstIsTheTimeLeft() {
    RoundClock clock = new RoundClock(5);
    clock.ran(5, 10_000_000_000L); // 2 s a step: 28 s for rounds 3 and 4 of 4 with 3 open steps and one control round
    StringWriter log = new StringWriter();
    clock.progress(new PrintWriter(log), 3, 4, 3, 5, REST, 20.4);
    assertThat(log.toString().strip()).isEqualTo("study: round 3 of at most 4: 3 of 5 steps open, at most 20 s left, the budget");

    log = new StringWriter();
    clock.progress(new PrintWriter(log), 3, 4, 3, 5, REST, 600);
    assertThat(log.toString().strip()).endsWith("3 of 5 steps open, about 22 s left");

    log = new StringWriter();
    clock.controlProgress(new PrintWriter(log), 1, 2, 2, 3, REST, 15);
    assertThat(log.toString().strip()).isEqualTo("study: a/a control round 1 of 2: all 5 steps, at most 15 s left, the budget");

    log = new StringWriter();
    new RoundClock(48).progress(new PrintWriter(log), 1, 30, 240, 240, REST, 7200);
    assertThat(log.toString().strip()).endsWith("240 of 240 steps open, at most 120 min 0 s left, the budget");
  }

  /**
   * A control round counts its own steps: a six-major version study's is one pair of 48 steps where
   * a comparison round runs five. Counted as a comparison round, each control round still to come
   * weighed five times its time, in the line and in the budget's check.
   */
  @Test
  void aControlRoundOfOnePairAmongRoundsOfFiveCountsItsOwnSteps() {
    RoundClock clock = new RoundClock(48);
    clock.ran(240, 240_000_000_000L); // 1 s a step
    // Rounds 3 and 4 with 240 open steps each, and the one control round among REST with its 48.
    assertThat(clock.secondsLeft(3, 4, 240, REST)).isEqualTo(2 * 240 + 48);
    assertThat(clock.nanosBeforeStopping(240, REST)).isEqualTo((240 + 48) * 1_000_000_000L);
    StringWriter log = new StringWriter();
    clock.controlProgress(new PrintWriter(log), 1, 6, 2, 240, REST, Double.POSITIVE_INFINITY);
    // This round's 48, two comparison rounds of 240, the control round among REST: 576 s.
    assertThat(log.toString().strip()).isEqualTo("study: a/a control round 1 of 6: all 48 steps, about 9 min 36 s left");
  }
}
