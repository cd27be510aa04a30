package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.app.study.duet.DuetSchedule;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * The loop of a study run until decided, with a study whose looks decide as told: it stops at the
 * first look that decides every step, or after the last round, and then runs the a/a control's
 * rounds still to come (spread through the study, the control is complete whenever it stops); each
 * look gets the runs since the last and decides at its own level.
 */
class UntilDecidedTest {
  private static final StatisticsSettings SETTINGS = StatisticsSettings.DEFAULTS;

  /** A study that records what happened; {@code verdictsAt} gives the two steps' verdicts at a round's look. */
  private static class Scripted implements UntilDecided.Study {
    final List<DuetSchedule.Round> ran = new ArrayList<>();
    final List<Integer> looksAfter = new ArrayList<>();
    final List<Double> levels = new ArrayList<>();
    final List<Integer> newRunsPerLook = new ArrayList<>();
    final IntFunction<List<Verdict>> verdictsAt;

    Scripted(IntFunction<List<Verdict>> verdictsAt) {
      this.verdictsAt = verdictsAt;
    }

    @Override
    public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
      ran.add(round);
      return List.of();
    }

    @Override
    public List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) {
      DuetSchedule.Round round = ran.get(ran.size() - 1);
      return List.of(new StudyRuns.Done(Path.of("r" + round.round() + "-a"), null),
          new StudyRuns.Done(Path.of("r" + round.round() + "-b"), null));
    }

    @Override
    public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) {
      int round = ran.get(ran.size() - 1).ofKind();
      looksAfter.add(round);
      levels.add(at.alpha());
      newRunsPerLook.add(newRuns.size());
      List<Decision> decisions = verdictsAt.apply(round).stream()
          .map(v -> new Decision(v, 0.5, 0.5, false, false, v, 2, null)).toList();
      return new UntilDecided.Look(decisions, "Calls: …");
    }
  }

  private static UntilDecided.Outcome run(Scripted study, int maxRounds) throws Exception {
    SequentialLooks looks = SequentialLooks.haybittlePeto(SETTINGS, 3, maxRounds);
    return UntilDecided.run(new DuetSchedule(maxRounds, 2, 5, 3), looks, study, new PrintWriter(new StringWriter()));
  }

  @Test
  void stopsAtTheFirstLookThatDecidesEveryStepThenCompletesTheControl() throws Exception {
    Scripted study = new Scripted(round -> round < 5 ? List.of(Verdict.SLOWER, Verdict.INCONCLUSIVE)
        : List.of(Verdict.SLOWER, Verdict.EQUIVALENT));
    UntilDecided.Outcome outcome = run(study, 10);
    assertThat(study.looksAfter).containsExactly(3, 4, 5);
    assertThat(study.levels).containsExactly(0.001, 0.001, 0.001);
    // Comparison rounds 1..5, then the control's 2 rounds, which this seed placed in the study's
    // two halves (rounds 6 and 11 of 12), both after the stop: they run then, so the control is complete.
    assertThat(study.ran).hasSize(7);
    assertThat(study.ran.subList(0, 5)).noneMatch(DuetSchedule.Round::aa);
    assertThat(study.ran.subList(5, 7)).extracting(DuetSchedule.Round::round).containsExactly(6, 11);
    assertThat(study.newRunsPerLook).as("each look takes in the runs since the last").containsExactly(6, 2, 2);
    assertThat(outcome.done()).hasSize(14);
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(5);
    assertThat(outcome.stop().everyStepDecided()).isTrue();
    assertThat(outcome.settings().alpha()).isEqualTo(0.001);
    assertThat(outcome.stop().sentence()).contains("stopped after round 5 of at most 10, every step decided");
  }

  @Test
  void runsToTheLastRoundAndDecidesItAtWhatIsLeftOfAlpha() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE));
    UntilDecided.Outcome outcome = run(study, 6);
    assertThat(study.looksAfter).containsExactly(3, 4, 5, 6);
    assertThat(study.levels.get(3)).isCloseTo(0.05 - 3 * 0.001, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(6);
    assertThat(outcome.stop().everyStepDecided()).isFalse();
    assertThat(outcome.stop().sentence()).contains("the last round, with steps still undecided");
  }

  /**
   * A look the study can tell cannot stop it is skipped and said in the log; the runs it would have
   * taken in go to the next look; the last look is always taken, at what is left of α.
   */
  @Test
  void aLookThatCannotStopTheStudyIsSkippedButNeverTheLast() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE)) {
      @Override
      public java.util.Optional<String> cannotStopAt(StatisticsSettings at) {
        int round = ran.get(ran.size() - 1).ofKind();
        return round == 5 ? java.util.Optional.empty() : java.util.Optional.of("step b has too few pairs");
      }
    };
    SequentialLooks looks = SequentialLooks.haybittlePeto(SETTINGS, 3, 6);
    StringWriter log = new StringWriter();
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(6, 2, 5, 3), looks, study, new PrintWriter(log));
    assertThat(study.looksAfter).containsExactly(5, 6);
    assertThat(study.newRunsPerLook).as("rounds 1-5 and the control's, then round 6").containsExactly(14, 2);
    assertThat(study.levels.get(1)).isCloseTo(0.05 - 3 * 0.001, org.assertj.core.data.Offset.offset(1e-12));
    assertThat(log.toString()).contains("study: look after round 3 of at most 6 (α = 0.001) skipped: step b has too"
        + " few pairs. Next round.").contains("look after round 4 of at most 6 (α = 0.001) skipped")
        .doesNotContain("round 6 of at most 6 (α = 0.047) skipped");
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(6);
  }

  @Test
  void aStepWithoutAnEstimateIsUndecided() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.EQUIVALENT));
    SequentialLooks looks = SequentialLooks.haybittlePeto(SETTINGS, 3, 4);
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(4, 2, 5, 3), looks, new UntilDecided.Study() {
      @Override
      public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
        return study.measurementsOf(round);
      }

      @Override
      public List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) {
        return study.run(measurements);
      }

      @Override
      public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) {
        List<Decision> decisions = new ArrayList<>(study.look(newRuns, at).decisions());
        decisions.add(null);
        return new UntilDecided.Look(decisions, "Calls: …");
      }
    }, new PrintWriter(new StringWriter()));
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(4);
    assertThat(outcome.stop().everyStepDecided()).isFalse();
  }
}
