package dev.benchlake.analysis.trend;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.stats.LogRatio;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import java.util.ArrayList;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Change points of a trend: where they are found, and what consecutive comparisons miss. */
class ChangePointsTest {
  private final List<Observation> observations = new ArrayList<>();
  private final Map<String, List<String>> runs = new TreeMap<>();

  private void add(String version, String step, double... values) {
    for (int i = 0; i < values.length; i++) {
      String run = version + "-" + (i + 1);
      observations.add(new Observation(run, version, step, values[i]));
      List<String> ids = runs.computeIfAbsent(version, v -> new ArrayList<>());
      if (!ids.contains(run)) {
        ids.add(run);
      }
    }
  }

  private StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void aDropOf15PercentAtOneVersionIsFoundAtThatVersion() {
    SplittableRandom random = new SplittableRandom(15);
    for (int major = 11; major <= 17; major++) {
      double level = major >= 15 ? 850 : 1000;
      double[] qps = new double[3];
      for (int r = 0; r < qps.length; r++) {
        qps[r] = level * Math.exp(0.03 * random.nextGaussian());
      }
      add(Integer.toString(major), "point-query_range=100", qps);
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of());
    StepTrend s = step(report, "point-query_range=100");
    assertThat(s.changePoints()).singleElement().satisfies(c -> {
      assertThat(c.at()).isEqualTo("15");
      assertThat(c.ratio()).isCloseTo(0.85, within(0.03));
      assertThat(c.after() / c.before()).isCloseTo(c.ratio(), within(1e-12));
      assertThat(c.before()).isCloseTo(1000, within(30.0));
      assertThat(c.p()).isLessThanOrEqualTo(TrendRequest.DEFAULT_CHANGE_POINT_ALPHA);
    });
  }

  @Test
  void fiveSuccessiveDropsOf3PercentAddUpToOneShiftThatNoConsecutiveComparisonSees() {
    // Versions 1..9, three runs each; the level falls by 3% from each version to the next from 2 to 7
    // (five steps), then stays. Each version's runs lie at −3%, 0, +3% around its level (the same
    // spread everywhere, so that every consecutive comparison is the same, known one).
    double[] residuals = {-0.03, 0, 0.03};
    int[] steps = {0, 0, 1, 2, 3, 4, 5, 5, 5};
    for (int v = 1; v <= 9; v++) {
      double level = Math.log(1000) + steps[v - 1] * Math.log(0.97);
      double[] qps = new double[3];
      for (int r = 0; r < 3; r++) {
        qps[r] = Math.exp(level + residuals[(r + v) % 3]);
      }
      add(Integer.toString(v), "read-only_range=100", qps);
    }
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of("version", "1", "qps"), List.of());
    StepTrend s = step(report, "read-only_range=100");

    // Consecutive versions: Welch's t on 3 against 3 runs, p ≈ 0.29 at every step, so no call.
    for (int v = 2; v <= 9; v++) {
      LogRatio pair = LogRatio.of(figures(String.valueOf(v - 1)), figures(String.valueOf(v)));
      assertThat(pair.pDifference()).as(v - 1 + " → " + v).isGreaterThan(0.2);
      assertThat(s.at(String.valueOf(v)).versusPrevious()).as(v - 1 + " → " + v)
          .isIn(Verdict.INCONCLUSIVE, Verdict.EQUIVALENT);
    }
    assertThat(report.flags()).as("changes between consecutive versions").isEmpty();

    // Along the whole series: one shift, of about the five steps together.
    assertThat(s.changePoints()).singleElement().satisfies(c -> {
      assertThat(Integer.parseInt(c.at())).isBetween(3, 7);
      assertThat(c.ratio()).isLessThan(0.95);
      assertThat(c.p()).isLessThanOrEqualTo(TrendRequest.DEFAULT_CHANGE_POINT_ALPHA);
    });
    System.out.println("five -3% steps: " + s.changePoints());
  }

  @Test
  void changePointsHaveTheirOwnLevelNotTheComparisons() {
    // Two runs at each of four versions, a clean 18 % drop at 3: every ordering that splits the
    // eight runs as well is one of 2 in C(8,4) = 70, so p ≈ 0.03, significant at 0.05 only.
    add("1", "s", 1000, 1010);
    add("2", "s", 990, 1020);
    add("3", "s", 820, 810);
    add("4", "s", 830, 815);
    TrendRequest request = TrendRequest.of("version", "1", "qps");
    assertThat(request.changePointAlpha()).isEqualTo(0.01);
    assertThat(step(TrendAnalysis.analyse(observations, runs, request, List.of()), "s").changePoints()).isEmpty();
    assertThat(step(TrendAnalysis.analyse(observations, runs, request.withSettings(StatisticsSettings.DEFAULTS.withAlpha(0.2)), List.of()), "s").changePoints())
        .as("--alpha does not move change points").isEmpty();
    TrendReport loose = TrendAnalysis.analyse(observations, runs, request.withChangePointAlpha(0.05), List.of());
    assertThat(step(loose, "s").changePoints()).singleElement().satisfies(c -> {
      assertThat(c.at()).isEqualTo("3");
      assertThat(c.p()).isBetween(0.01, 0.05);
    });
    assertThat(loose.changePointAlpha()).isEqualTo(0.05);
    assertThat(loose.methods()).anyMatch(m -> m.startsWith("Change points:") && m.contains("p ≤ 0.05"));
  }

  @Test
  void aFigureOfZeroOrTooFewRunsGiveNoChangePoint() {
    add("1", "a", 100, 101, 99);
    add("2", "a", 0, 80, 81);
    add("1", "b", 100);
    add("2", "b", 50);
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of("version", "1", "qps"), List.of());
    assertThat(step(report, "a").changePoints()).isEmpty();
    assertThat(report.messages()).anyMatch(m -> m.contains("step a") && m.contains("no change points"));
    assertThat(step(report, "b").changePoints()).isEmpty();
  }

  private double[] figures(String version) {
    return observations.stream().filter(o -> o.version().equals(version)).mapToDouble(Observation::value).toArray();
  }

}
