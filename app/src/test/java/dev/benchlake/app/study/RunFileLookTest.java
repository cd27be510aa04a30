package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.FigureReports;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A duet's look from its run folders: the comparison's rule for each step, on folders as a duet
 * writes them, and the comparison's calls and θs over random duets. That each run's median is the
 * warehouse's is checked where both exist: every study run until decided compares its stopping
 * look with its report (StudyUntilDecidedTest, QuickstartIT).
 */
class RunFileLookTest {
  private static final StatisticsSettings AT = new StatisticsSettings(0.05, 0.05,
      StatisticsSettings.DEFAULTS.correction());

  @TempDir
  Path tmp;

  /**
   * Six rounds, sides swapping sets: read-only's b about 20 % slower is called slower (θ about 1.2),
   * insert's ratio of 1 ± 0.5 % equivalent; the a/a control's rounds are left out, and
   * update-index, run in one round only, has no verdict and stays out of the family.
   */
  @Test
  void eachStepIsDecidedByTheComparisonsRuleOverTheComparisonRounds() throws Exception {
    double[] readOnly = {1.19, 1.21, 1.18, 1.22, 1.20, 1.20};
    double[] insert = {1.005, 0.995, 1.0, 1.004, 0.996, 1.0};
    List<StudyRuns.Done> runs = new ArrayList<>();
    for (int round = 1; round <= 6; round++) {
      String setOfA = round % 2 == 1 ? "0" : "1";
      String setOfB = round % 2 == 1 ? "1" : "0";
      Map<String, Long> a = new TreeMap<>(Map.of("read-only", 1_000_000L, "insert", 400_000L));
      Map<String, Long> b = new TreeMap<>(Map.of("read-only", Math.round(1_000_000 * readOnly[round - 1]),
          "insert", Math.round(400_000 * insert[round - 1])));
      if (round == 1) {
        a.put("update-index", 300_000L);
        b.put("update-index", 600_000L);
      }
      runs.add(run("r" + round + "-a", round, "a", setOfA, null, a));
      runs.add(run("r" + round + "-b", round, "b", setOfB, null, b));
    }
    // An a/a round whose b is twice as slow: it must not enter the comparison.
    runs.add(run("aa-a", 7, "a", "0", "aa", Map.of("read-only", 1_000_000L)));
    runs.add(run("aa-b", 7, "b", "1", "aa", Map.of("read-only", 2_000_000L)));

    UntilDecided.Look look = new RunFileLook(new LookPreCheck()).at(runs, AT);

    assertThat(look.stepOf()).containsExactly("insert", "read-only", "update-index");
    assertThat(look.decisions().get(0).verdict()).isEqualTo(Verdict.EQUIVALENT);
    assertThat(look.decisions().get(1).verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(look.decisions().get(2)).as("one pair: no verdict, out of the family").isNull();
    assertThat(look.decisions().get(1).family()).isEqualTo(2);
    assertThat(look.headline()).isEqualTo("Calls: 1 slower, 1 equivalent, 1 inconclusive (3 steps).");
    assertThat(look.decidedSteps()).containsExactly("insert", "read-only");
    assertThat(RunFileLook.effect(new LookPreCheck().pairsByStep(runs).get("read-only")).ratio())
        .isCloseTo(1.2, org.assertj.core.data.Offset.offset(0.002));
  }

  /** As the comparison: a step whose runs all give one figure, or whose median is 0, has no verdict. */
  @Test
  void aStepWithoutSpreadOrWithAZeroMedianHasNoVerdict() throws Exception {
    List<StudyRuns.Done> runs = new ArrayList<>();
    for (int round = 1; round <= 4; round++) {
      runs.add(run("r" + round + "-a", round, "a", null, null, Map.of("read-only", 1_000L, "insert", 0L)));
      runs.add(run("r" + round + "-b", round, "b", null, null, Map.of("read-only", 1_100L, "insert", 5L)));
    }
    UntilDecided.Look look = new RunFileLook(new LookPreCheck()).at(runs, AT);
    assertThat(look.stepOf()).containsExactly("insert", "read-only");
    assertThat(look.decisions()).containsOnlyNulls();
    assertThat(look.headline()).isEqualTo("Calls: 2 inconclusive (2 steps).");
  }

  /**
   * The promise, over 300 random duets (1–5 steps, 3–10 rounds, the sides swapping CPU sets, θ from
   * 0.9 to 1.3, per-round spreads of 0.2–6 %, at an interim and a last look's level): the look from
   * the run folders gives the calls and θs of the comparison's own decision code ({@code
   * Compare.report} on the same per-run medians), so that {@link RunFileLook#disagreements} is
   * empty; and it has teeth: a comparison whose figures differ by 1 % in one run is caught.
   */
  @Test
  void itDecidesAsTheComparisonDoesAndSaysWhereTheyDiffer() throws Exception {
    Random random = new Random(46);
    double[] thetas = {0.9, 1.0, 1.004, 1.03, 1.05, 1.3};
    double[] sds = {0.002, 0.01, 0.03, 0.06};
    int decided = 0;
    for (int trial = 0; trial < 300; trial++) {
      StatisticsSettings at = new StatisticsSettings(random.nextBoolean() ? 0.001 : 0.043, 0.05,
          StatisticsSettings.DEFAULTS.correction());
      int rounds = 3 + random.nextInt(8);
      int steps = 1 + random.nextInt(5);
      Map<String, Sides<double[]>> mediansS = new LinkedHashMap<>();
      List<Map<String, Long>> a = new ArrayList<>();
      List<Map<String, Long>> b = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        a.add(new TreeMap<>());
        b.add(new TreeMap<>());
      }
      for (int s = 0; s < steps; s++) {
        double theta = thetas[random.nextInt(thetas.length)];
        double sd = sds[random.nextInt(sds.length)];
        double setEffect = 0.05 * random.nextGaussian();
        double[] baseline = new double[rounds];
        double[] candidate = new double[rounds];
        for (int r = 0; r < rounds; r++) {
          long aNs = 100_000 + random.nextInt(50_000);
          double log = Math.log(theta) + (r % 2 == 0 ? setEffect : -setEffect) + sd * random.nextGaussian();
          long bNs = Math.round(aNs * Math.exp(log));
          a.get(r).put("step" + s, aNs);
          b.get(r).put("step" + s, bNs);
          baseline[r] = aNs / 1e9;
          candidate[r] = bNs / 1e9;
        }
        mediansS.put("step" + s, Sides.of(baseline, candidate));
      }
      List<StudyRuns.Done> runs = new ArrayList<>();
      for (int r = 0; r < rounds; r++) {
        String setOfA = r % 2 == 0 ? "0" : "1";
        String setOfB = r % 2 == 0 ? "1" : "0";
        runs.add(run("t" + trial + "-r" + (r + 1) + "-a", r + 1, "a", setOfA, null, a.get(r)));
        runs.add(run("t" + trial + "-r" + (r + 1) + "-b", r + 1, "b", setOfB, null, b.get(r)));
      }
      RunFileLook look = new RunFileLook(new LookPreCheck());
      UntilDecided.Look taken = look.at(runs, at);
      ComparisonReport comparison = FigureReports.of(at, mediansS, true, true);
      assertThat(look.disagreements(comparison)).as("trial %d", trial).isEmpty();
      decided += (int) taken.decisions().stream().filter(d -> d != null && d.verdict() != Verdict.INCONCLUSIVE).count();

      if (trial == 0) {
        Map<String, Sides<double[]>> moved = new LinkedHashMap<>(mediansS);
        double[] candidate = mediansS.get("step0").candidate().clone();
        candidate[0] *= 1.01;
        moved.put("step0", Sides.of(mediansS.get("step0").baseline(), candidate));
        assertThat(look.disagreements(FigureReports.of(at, moved, true, true)))
            .singleElement().asString().startsWith("step0: the look ");
      }
    }
    assertThat(decided).as("calls made, so that agreement on calls was tested").isGreaterThan(200);
  }

  private StudyRuns.Done run(String name, int round, String side, String cpus, String control,
      Map<String, Long> latencyByStep) throws Exception {
    return DuetRunFolders.run(tmp, name, round, side, cpus, control, latencyByStep);
  }
}
