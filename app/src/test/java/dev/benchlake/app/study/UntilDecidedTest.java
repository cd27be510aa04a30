package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

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

    /** Asking ahead is not running: {@link #ran} records the rounds that ran. */
    @Override
    public int stepsOf(DuetSchedule.Round round) {
      int steps = OpenSteps.count(measurementsOf(round));
      ran.remove(ran.size() - 1);
      return steps;
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
   * Each look decides at the plan's own level, and the stop (the report's methods, study.json's
   * {@code rule} and {@code plan}) names the plan's rule and levels, whatever the rule.
   */
  @Test
  void eachLookIsAtThePlansLevelAndTheStopNamesItsRule() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE));
    SequentialLooks looks = SequentialLooks.spending(SETTINGS, 3, 6, t -> t * t * t, "cubic spending");
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(6, 2, 5, 3), looks, study,
        new PrintWriter(new StringWriter()));
    assertThat(study.levels).containsExactlyElementsOf(looks.levels());
    assertThat(study.levels.get(0)).isCloseTo(0.05 * 27 / 216, org.assertj.core.data.Offset.offset(1e-15));
    assertThat(outcome.stop().rule()).isEqualTo("cubic spending");
    assertThat(outcome.stop().plan()).isEqualTo(looks.inWords()).startsWith("looks after rounds 3 to 5 at α = 0.00625, ");
  }

  /**
   * A look the study can tell cannot stop it is skipped and said in the log; the runs it would have
   * taken in go to the next look; the last look is always taken, at what is left of α.
   */
  @Test
  void aLookThatCannotStopTheStudyIsSkippedButNeverTheLast() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE)) {
      @Override
      public java.util.Optional<String> decidesNoneAt(StatisticsSettings at, java.util.Set<String> decided) {
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

  /**
   * Issue 47: a step decided at a look drops out of every later comparison round (its workload not
   * run at all once all of its steps are decided, the open steps in their order), while the a/a
   * control's rounds run every step; the study stops once every step is decided, records the round
   * each was decided after, and says each round's open steps.
   */
  @Test
  void aStepDecidedAtALookDropsOutOfLaterRounds() throws Exception {
    List<String> steps = List.of("select-update", "point-select", "read-only", "insert");
    List<List<String>> ranPerRound = new ArrayList<>();
    Scripted study = new Scripted(round -> round < 4
        ? List.of(Verdict.EQUIVALENT, Verdict.INCONCLUSIVE, Verdict.SLOWER, Verdict.INCONCLUSIVE)
        // At look 4, select-update and read-only (frozen) keep their calls; insert is decided now.
        : round < 5 ? List.of(Verdict.EQUIVALENT, Verdict.INCONCLUSIVE, Verdict.SLOWER, Verdict.FASTER)
        : List.of(Verdict.EQUIVALENT, Verdict.EQUIVALENT, Verdict.SLOWER, Verdict.FASTER)) {
      @Override
      public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
        super.measurementsOf(round);
        return List.of(new StudyRuns.Alone("su", config("select-update", List.of())),
            new StudyRuns.Alone("sb", config("sysbench", steps.subList(1, 4))));
      }

      @Override
      public List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) {
        List<String> ran = new ArrayList<>();
        measurements.forEach(m -> ran.addAll(OpenSteps.of(((StudyRuns.Alone) m).config())));
        ranPerRound.add(ran);
        return super.run(measurements);
      }

      @Override
      public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) {
        return new UntilDecided.Look(super.look(newRuns, at).decisions(), "Calls: …", steps);
      }
    };
    StringWriter log = new StringWriter();
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(10, 2, 5, 3),
        SequentialLooks.haybittlePeto(SETTINGS, 3, 10), study, new PrintWriter(log));
    List<String> everyStep = steps;
    for (int i = 0; i < study.ran.size(); i++) {
      DuetSchedule.Round round = study.ran.get(i);
      List<String> expected = round.aa() ? everyStep : round.ofKind() <= 3 ? everyStep
          : round.ofKind() == 4 ? List.of("point-select", "insert") : List.of("point-select");
      assertThat(ranPerRound.get(i)).as("round %s", round).isEqualTo(expected);
    }
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(5);
    assertThat(outcome.stop().everyStepDecided()).isTrue();
    assertThat(outcome.decidedAt()).containsExactly(java.util.Map.entry("select-update", 3),
        java.util.Map.entry("read-only", 3), java.util.Map.entry("insert", 4), java.util.Map.entry("point-select", 5));
    assertThat(log.toString())
        .contains("round 1 of at most 10: 4 of 4 steps open, time left known after the first round")
        .contains("Decided, so left out of later rounds: select-update, read-only (2 open). Next round.")
        .contains("round 4 of at most 10: 2 of 4 steps open, about ")
        .contains("round 5 of at most 10: 1 of 4 steps open, about ");
  }

  /**
   * {@code --budget}: at the first look after which the next round would not fit, that look is
   * taken (never skipped) and the study stops, with its steps still open, then completes the control.
   */
  @Test
  void aSpentBudgetMakesTheNextLookTheLast() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE)) {
      @Override
      public java.util.Optional<String> decidesNoneAt(StatisticsSettings at, java.util.Set<String> decided) {
        return java.util.Optional.of("nothing to decide");
      }
    };
    StringWriter log = new StringWriter();
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(10, 2, 5, 3),
        SequentialLooks.haybittlePeto(SETTINGS, 3, 10), study, new PrintWriter(log), System.nanoTime());
    assertThat(study.looksAfter).as("the look after round 3 is taken although it would be skipped").containsExactly(3);
    assertThat(outcome.stop().stoppedAfterRound()).isEqualTo(3);
    assertThat(outcome.stop().sentence()).contains("stopped after round 3 of at most 10, the time budget spent, with "
        + "steps still undecided");
    assertThat(study.ran.stream().filter(DuetSchedule.Round::aa).count()).as("the control complete").isEqualTo(2);
    assertThat(log.toString()).contains("study: the budget does not fit another round").contains("Stopping.");
    // That look spends what the plan has left (issue 47): nothing was spent before it, so all of α.
    assertThat(study.levels).containsExactly(0.05);
    assertThat(outcome.settings().alpha()).isEqualTo(0.05);
    assertThat(outcome.stop().budgetAlpha()).isEqualTo(0.05);
    assertThat(outcome.stop().sentence()).endsWith("Its look was the last, the time budget fitting no other round, and "
        + "was decided at the α the plan had left: 0.05.");
    assertThat(log.toString()).contains("the look after round 3 is the last, at the α the plan has left (0.05).");
  }

  /**
   * A budget that ends the study after round 6 of 10: the interim looks after rounds 3 to 5 at
   * 0.001, the last at 0.05 − 3 · 0.001, as the rest of the plan would have spent it.
   */
  @Test
  void aBudgetsLastLookLaterInTheStudySpendsWhatTheInterimLooksLeft() throws Exception {
    Scripted study = new Scripted(round -> List.of(Verdict.FASTER, Verdict.INCONCLUSIVE));
    long[] now = {0};
    long roundNs = 60_000_000_000L;
    Scripted timed = new Scripted(study.verdictsAt) {
      @Override
      public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
        super.measurementsOf(round);
        // One step a round, so that the clock can tell a step's time.
        return List.of(new StudyRuns.Alone("point-select", config("point-select", List.of())));
      }

      @Override
      public List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) {
        now[0] += roundNs;
        return super.run(measurements);
      }
    };
    Progress progress = new Progress(new PrintWriter(new StringWriter()), false, () -> now[0]);
    // Rounds take a minute each; 8 minutes 30 s fit six comparison rounds and the control's two.
    UntilDecided.Outcome outcome = UntilDecided.run(new DuetSchedule(10, 2, 5, 3),
        SequentialLooks.haybittlePeto(SETTINGS, 3, 10), timed, progress, 8 * roundNs + roundNs / 2);
    int last = outcome.stop().stoppedAfterRound();
    assertThat(last).isEqualTo(6);
    assertThat(timed.levels.subList(0, timed.levels.size() - 1)).containsOnly(0.001);
    assertThat(timed.levels.get(timed.levels.size() - 1)).isCloseTo(0.05 - (last - 3) * 0.001, within(1e-15));
    assertThat(outcome.settings().alpha()).isEqualTo(timed.levels.get(timed.levels.size() - 1));
  }

  private static dev.benchlake.loadgen.LoadgenConfig config(String workload, List<String> steps) {
    return dev.benchlake.loadgen.LoadgenConfig.builder()
        .target(new dev.benchlake.loadgen.LoadgenConfig.External("jdbc:postgresql://x/y", null)).workload(workload)
        .steps(steps).tableSize(10_000).build();
  }

  /**
   * A version study's look leaves the 2023 sequence's warm-up step out (issue 47): decided, it
   * would drop out and leave the steps after it without their warm-up; undecided, it would hold the
   * study open. Here it is 30 % slower on 17 in every round, and the one measured step equivalent.
   */
  @Test
  void aVersionStudysLookNeitherWaitsForNorDropsTheWarmUpStep() {
    List<dev.benchlake.analysis.trend.TrendAnalysis.Observation> observations = new ArrayList<>();
    java.util.Map<String, List<String>> runIds = new java.util.TreeMap<>();
    java.util.Map<String, java.util.Map<String, String>> labels = new java.util.HashMap<>();
    java.util.Random random = new java.util.Random(47);
    for (int round = 1; round <= 6; round++) {
      double moment = 0.3 * random.nextGaussian();
      for (String major : List.of("14", "17")) {
        String id = "r" + round + "-" + major;
        runIds.computeIfAbsent(major, m -> new ArrayList<>()).add(id);
        labels.put(id, java.util.Map.of("design", "duet", "round", Integer.toString(round)));
        double noise = Math.exp(moment + 0.005 * random.nextGaussian());
        observations.add(new dev.benchlake.analysis.trend.TrendAnalysis.Observation(id, major,
            "point-query.warm_range=100", 1000 * noise * (major.equals("17") ? 0.7 : 1)));
        observations.add(new dev.benchlake.analysis.trend.TrendAnalysis.Observation(id, major,
            "point-query_range=100", 1000 * noise));
      }
    }
    var trend = dev.benchlake.analysis.trend.TrendAnalysis.analyse(observations, runIds,
        dev.benchlake.analysis.trend.TrendRequest.of("db_major", "14", "qps"), List.of(), null, labels);
    assertThat(trend.steps()).filteredOn(s -> s.step().startsWith("point-query.warm")).singleElement()
        .satisfies(s -> assertThat(s.at("17").verdict()).isEqualTo(Verdict.SLOWER));
    UntilDecided.Look look = UntilDecided.Look.ofTrend(trend);
    assertThat(look.stepOf()).containsExactly("point-query_range=100");
    assertThat(look.decidedSteps()).containsExactly("point-query_range=100");
    assertThat(look.headline()).isEqualTo("calls against 14: 1 equivalent (the warm-up point-query.warm_range=100 not "
        + "counted).");
  }
}
