package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.loadgen.LoadgenConfig;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What a study says on stderr as it runs (issue 49, issue 47: "no line per step per round unless
 * asked"), on a fake clock: one line per round, each kind of round counted as the looks count it,
 * the looks' calls and the warm-up's time; each measurement's detail only with {@code --verbose}.
 * A terminal gets the same lines as a pipe: no line is rewritten in place and none carries an escape.
 */
class ProgressTest {
  /**
   * Each step of a round takes 4 s on the fake clock, a look 2 s, the warm-up 70 s, which the time
   * left leaves out (it once read round 1's warm-up as measuring: "about 11 min 13 s left" at round 2
   * of a study that took 5).
   */
  private static final long STEP_NS = TimeUnit.SECONDS.toNanos(4);

  private static LoadgenConfig config(String workload, List<String> steps, int round, boolean aa) {
    LoadgenConfig config = LoadgenConfig.builder().target(new LoadgenConfig.External("jdbc:postgresql://x/y", null))
        .workload(workload).steps(steps).tableSize(10_000).build().withLabel(StudyLabels.ROUND, Integer.toString(round));
    return aa ? config.withLabel(StudyLabels.CONTROL, StudyLabels.AA) : config;
  }

  /** A round's two measurements, as the quickstart's: select-update alone, then sysbench's two steps. */
  private static List<StudyRuns.Measurement> measurements(DuetSchedule.Round r) {
    return List.of(new StudyRuns.Alone(DuetPairs.title(r) + ", select-update", config("select-update", List.of(),
            r.round(), r.aa())),
        new StudyRuns.Alone(DuetPairs.title(r) + ", sysbench", config("sysbench", List.of("point-select", "insert"),
            r.round(), r.aa())));
  }

  /**
   * A study that takes its time on the fake clock and says its detail as {@link StudyRuns} does; its
   * look after round 3 decides select-update, the one after round 4 every step.
   */
  private static final class Scripted implements UntilDecided.Study {
    final long[] nowNs;
    final Progress progress;
    boolean warm;
    DuetSchedule.Round current;

    Scripted(long[] nowNs, Progress progress) {
      this.nowNs = nowNs;
      this.progress = progress;
    }

    @Override
    public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
      current = round;
      return measurements(round);
    }

    @Override
    public List<StudyRuns.Done> run(List<StudyRuns.Measurement> ms) {
      if (!warm) {
        long startNs = progress.warmingUp(3, 2);
        nowNs[0] += TimeUnit.SECONDS.toNanos(70);
        progress.warmedUp(startNs);
        warm = true;
      }
      List<StudyRuns.Done> done = new ArrayList<>();
      for (int i = 0; i < ms.size(); i++) {
        int steps = OpenSteps.count(List.of(ms.get(i)));
        progress.detail("study: [" + (i + 1) + "/" + ms.size() + "] " + ms.get(i).title() + ": both sides at once");
        nowNs[0] += steps * STEP_NS;
        progress.detail("study: [" + (i + 1) + "/" + ms.size() + "] " + ms.get(i).title() + ": complete in "
            + steps * 4 + " s");
        done.add(new StudyRuns.Done(Path.of("r" + current.round()), null));
      }
      return done;
    }

    @Override
    public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) {
      nowNs[0] += TimeUnit.SECONDS.toNanos(2);
      progress.detail("quickstart: ingesting " + newRuns.size() + " runs into /w");
      Verdict first = current.ofKind() >= 3 ? Verdict.FASTER : Verdict.INCONCLUSIVE;
      Verdict rest = current.ofKind() >= 4 ? Verdict.EQUIVALENT : Verdict.INCONCLUSIVE;
      List<Decision> decisions = List.of(first, rest, rest).stream()
          .map(v -> new Decision(v, 0.5, 0.5, false, false, v, 2, null)).toList();
      return new UntilDecided.Look(decisions, "Calls: …", List.of("select-update", "point-select", "insert"));
    }
  }

  private static List<String> untilDecided(boolean verbose) throws Exception {
    StringWriter err = new StringWriter();
    long[] nowNs = {0};
    Progress progress = new Progress(new PrintWriter(err), verbose, () -> nowNs[0]);
    SequentialLooks looks = SequentialLooks.haybittlePeto(StatisticsSettings.DEFAULTS, 3, 4);
    UntilDecided.run(new DuetSchedule(4, 2, 5, 3), looks, new Scripted(nowNs, progress), progress, Long.MAX_VALUE);
    return err.toString().lines().toList();
  }

  /** The default: a line a round, the control's rounds named as such, the warm-up's time and each look's calls. */
  @Test
  void runUntilDecidedItSaysOneLineARoundAndTheLooksAndCountsRoundsOneWay() throws Exception {
    List<String> expected = List.of(
        "study: round 1 of at most 4: 3 of 3 steps open, time left known after the first round",
        "study: warming up the sides' JVMs: 3 passes of 2 kinds of pair (not kept)",
        "study: warmed up in 1 min 10 s",
        "study: round 2 of at most 4: 3 of 3 steps open, about 1 min 0 s left",
        "study: a/a control round 1 of 2: all 3 steps, about 48 s left",
        "study: round 3 of at most 4: 3 of 3 steps open, about 36 s left",
        "study: look after round 3 of at most 4 (α = 0.001): Calls: … Decided, so left out of later rounds: "
            + "select-update (2 open). Next round.",
        "study: a/a control round 2 of 2: all 3 steps, about 20 s left",
        "study: round 4 of at most 4: 2 of 3 steps open, about 8 s left",
        "study: look after round 4 of at most 4 (α = 0.049): Calls: … Stopping.");
    assertThat(untilDecided(false)).containsExactlyElementsOf(expected);
  }

  /** {@code --verbose}: the same lines, with each measurement's detail and each ingest between them. */
  @Test
  void verboseAddsEachMeasurementsDetailAndNamesItsRoundTheSameWay() throws Exception {
    List<String> verbose = untilDecided(true);
    assertThat(verbose.stream().filter(l -> !l.startsWith("study: [") && !l.startsWith("quickstart: ingesting")))
        .containsExactlyElementsOf(untilDecided(false));
    assertThat(verbose).contains(
        "study: [1/2] a/a control round 1, select-update: both sides at once",
        "study: [2/2] a/a control round 1, sysbench: complete in 8 s",
        "study: [1/1] round 4, sysbench: complete in 8 s",
        "quickstart: ingesting 8 runs into /w");
    assertThat(verbose).as("select-update, decided at round 3's look, runs in no later comparison round")
        .doesNotContain("study: [1/2] round 4, select-update: both sides at once");
    assertThat(String.join("\n", verbose)).doesNotContain("\u001b").doesNotContain("\r");
  }

  /**
   * A version study of four majors: each comparison round runs a pair per other major (three of two
   * steps), its a/a control one pair of the base (two steps). The lines and the budget's check count
   * a control round by its own steps: counted as a comparison round, the control's line read "about
   * 32 s left" here and the budget stopped the study after round 3's look, its rounds taken as three
   * times as long. Under the budget, the first round's line gives the budget.
   */
  @Test
  void aVersionStudysControlRoundOfOnePairCountsItsOwnSteps() throws Exception {
    StringWriter err = new StringWriter();
    long[] nowNs = {0};
    Progress progress = new Progress(new PrintWriter(err), false, () -> nowNs[0]);
    UntilDecided.Study study = new UntilDecided.Study() {
      @Override
      public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round r) {
        List<StudyRuns.Measurement> pairs = new ArrayList<>();
        for (int pair = 0; pair < (r.aa() ? 1 : 3); pair++) {
          pairs.add(new StudyRuns.Alone(DuetPairs.title(r) + ", pair " + pair,
              config("sysbench", List.of("point-select", "insert"), r.round(), r.aa())));
        }
        return pairs;
      }

      @Override
      public List<StudyRuns.Done> run(List<StudyRuns.Measurement> ms) {
        nowNs[0] += OpenSteps.count(ms) * STEP_NS;
        return List.of(new StudyRuns.Done(Path.of("r"), null));
      }

      @Override
      public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) {
        nowNs[0] += TimeUnit.SECONDS.toNanos(2);
        return new UntilDecided.Look(List.of(new Decision(Verdict.INCONCLUSIVE, 0.5, 0.5, false, false,
            Verdict.INCONCLUSIVE, 2, null)), "Calls: …");
      }
    };
    // 2 minutes: after round 3's look (80 s) the next round and the control's last (32 s) fit.
    UntilDecided.run(new DuetSchedule(4, 2, 5, 3), SequentialLooks.haybittlePeto(StatisticsSettings.DEFAULTS, 3, 4),
        study, progress, TimeUnit.SECONDS.toNanos(120));
    assertThat(err.toString().lines()).containsExactly(
        "study: round 1 of at most 4: 6 of 6 steps open, at most 2 min 0 s left, the budget",
        "study: round 2 of at most 4: 6 of 6 steps open, about 1 min 28 s left",
        "study: a/a control round 1 of 2: all 2 steps, about 1 min 4 s left",
        "study: round 3 of at most 4: 6 of 6 steps open, about 56 s left",
        "study: look after round 3 of at most 4 (α = 0.001): Calls: … Next round.",
        "study: a/a control round 2 of 2: all 2 steps, about 32 s left",
        "study: round 4 of at most 4: 6 of 6 steps open, about 24 s left",
        "study: look after round 4 of at most 4 (α = 0.049): Calls: … Stopping.");
  }

  /** A fixed number of rounds ({@code study ab}, {@code study versions}): a line a round too, with the time left. */
  @Test
  void aFixedNumberOfRoundsSaysALineARoundWithTheTimeLeft() {
    StringWriter err = new StringWriter();
    long[] nowNs = {0};
    Progress progress = new Progress(new PrintWriter(err), false, () -> nowNs[0]);
    List<StudyRuns.Measurement> plan = new ArrayList<>();
    for (DuetSchedule.Round r : new DuetSchedule(3, 2, 5).order()) {
      plan.addAll(measurements(r));
    }
    StudyRuns.FixedRounds rounds = new StudyRuns.FixedRounds(progress, plan);
    for (StudyRuns.Measurement m : plan) {
      rounds.starting(m);
      nowNs[0] += TimeUnit.SECONDS.toNanos(5);
    }
    assertThat(err.toString().lines()).containsExactly(
        "study: round 1 of 3: time left known after the first round",
        "study: a/a control round 1 of 2: about 40 s left",
        "study: round 2 of 3: about 30 s left",
        "study: a/a control round 2 of 2: about 20 s left",
        "study: round 3 of 3: about 10 s left");
  }
}
