package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.stats.HuberLogRatio;
import dev.benchlake.analysis.stats.PairedLogRatio;
import dev.benchlake.core.cli.BadInputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs matched into pairs by their labels ({@link PairKeys}, {@link RunPairs}) and the paired
 * estimate from them ({@link PairedByKey}): a run without a partner is dropped and listed, a run
 * without the pairing label or two runs of one side with one key are bad input.
 */
class PairedByKeyTest {
  /** A duet of three rounds, and a fourth round whose candidate run is missing. */
  private static final Sides<Map<String, Map<String, String>>> LABELS = Sides.of(
      runs("b1", "1", "b2", "2", "b3", "3", "b4", "4"),
      runs("c3", "3", "c1", "1", "c2", "2"));

  @Test
  void pairsRunsOfTheSameRoundAndListsTheRunLeftAlone() {
    Map<String, String> keys = PairKeys.of(LABELS, List.of("design", "round"), "the duet's round label");
    assertThat(keys).containsEntry("b3", "design=duet, round=3").containsEntry("c3", "design=duet, round=3");
    Sides<Map<String, Double>> figures = Sides.of(
        figures("b1", 100.0, "b2", 130.0, "b3", 70.0, "b4", 90.0),
        figures("c3", 77.0, "c1", 110.0, "c2", 143.0));
    RunPairs pairs = new PairedByKey(keys).pairs(figures);
    assertThat(pairs.size()).isEqualTo(3);
    assertThat(pairs.pairs()).extracting(p -> p.runIds().candidate()).containsExactly("c1", "c2", "c3");
    assertThat(pairs.dropped()).containsExactly(new RunPairs.Dropped("b4", Side.BASELINE, "design=duet, round=4",
        "no candidate run with a figure has design=duet, round=4"));
    HuberLogRatio theta = (HuberLogRatio) new PairedByKey(keys).estimate(figures);
    // Every pair's ratio is 1.1: the rounds' ±30 % swing cancels.
    assertThat(theta.pairs()).isEqualTo(3);
    assertThat(theta.ratio()).isCloseTo(1.1, within(1e-12));
    assertThat(theta.seLog()).isLessThan(1e-12);
    assertThat(new PairedByKey(keys).name()).isEqualTo("paired");
  }

  @Test
  void aDuetThatSwapsCpuSetsHasTheSetFittedOnceEachWayHasTwoPairs() {
    // Six rounds: the candidate 5 % slower, and whichever side runs on CPU 1 a further 20 % slower.
    Map<String, Map<String, String>> baseline = new LinkedHashMap<>();
    Map<String, Map<String, String>> candidate = new LinkedHashMap<>();
    Map<String, Double> baselineFigures = new LinkedHashMap<>();
    Map<String, Double> candidateFigures = new LinkedHashMap<>();
    double[] noise = {0.01, -0.02, 0.015, 0.0, -0.01, 0.005};
    for (int round = 1; round <= 6; round++) {
      boolean baselineOnZero = round % 2 == 1;
      baseline.put("b" + round, Map.of("design", "duet", "round", "" + round, "cpus", baselineOnZero ? "0" : "1"));
      candidate.put("c" + round, Map.of("design", "duet", "round", "" + round, "cpus", baselineOnZero ? "1" : "0"));
      double level = 100 * (1 + 0.3 * Math.sin(round));
      baselineFigures.put("b" + round, level * (baselineOnZero ? 1 : 1.2));
      candidateFigures.put("c" + round, level * 1.05 * (baselineOnZero ? 1.2 : 1) * Math.exp(noise[round - 1]));
    }
    Pairing pairing = Pairing.choose(Sides.of(baseline, candidate), List.of());
    assertThat(pairing.reason()).contains("the set is fitted too");
    Sides<Map<String, Double>> figures = Sides.of(baselineFigures, candidateFigures);
    RunPairs pairs = ((PairedByKey) pairing.method()).pairs(figures);
    assertThat(pairs.pairs().get(0).cpuSets()).isEqualTo(Sides.of("0", "1"));
    assertThat(pairs.baselineOnSetOne()).containsExactly(true, false, true, false, true, false);
    HuberLogRatio fitted = (HuberLogRatio) pairing.method().estimate(figures);
    assertThat(fitted.setsFitted()).isTrue();
    assertThat(fitted.ratio()).isCloseTo(1.05, within(0.01));
    // The candidate over the baseline is 1.2² higher when the baseline has CPU 0 (set one).
    assertThat(fitted.setRatio()).isCloseTo(1.44, within(0.03));
    assertThat(fitted.betweenRunSdLog()).isLessThan(0.02);
    PairedLogRatio ignored = PairedLogRatio.of(pairs.figures().baseline(), pairs.figures().candidate());
    assertThat(ignored.sdLogDifference()).isGreaterThan(10 * fitted.betweenRunSdLog());
    // Three rounds leave one pair on set two: no fit, the one-sample t.
    Sides<Map<String, Double>> three = figures.map(f -> {
      Map<String, Double> first = new LinkedHashMap<>();
      f.entrySet().stream().limit(3).forEach(e -> first.put(e.getKey(), e.getValue()));
      return first;
    });
    assertThat(((HuberLogRatio) pairing.method().estimate(three)).setsFitted()).isFalse();
  }

  @Test
  void pairsWhoseSidesShareASetAreNotFitted() {
    Map<String, String> keys = PairKeys.of(LABELS, List.of("round"), "--pair-by round");
    Map<String, String> sets = Map.of("b1", "0", "c1", "0", "b2", "1", "c2", "0", "b3", "0", "c3", "1");
    RunPairs pairs = RunPairs.match(Sides.of(figures("b1", 1.0, "b2", 2.0, "b3", 3.0),
        figures("c1", 1.0, "c2", 2.0, "c3", 3.0)), keys, sets);
    assertThat(pairs.baselineOnSetOne()).isNull();
  }

  @Test
  void aRunWithoutAFigureLeavesItsPartnerAlone() {
    Map<String, String> keys = PairKeys.of(LABELS, List.of("round"), "--pair-by round");
    RunPairs pairs = RunPairs.match(Sides.of(figures("b1", 1.0, "b2", 2.0, "b3", 3.0),
        figures("c1", 1.0, "c3", 3.0)), keys);
    assertThat(pairs.pairs()).extracting(RunPairs.Pair::key).containsExactly("round=1", "round=3");
    assertThat(pairs.dropped()).extracting(RunPairs.Dropped::runId).containsExactly("b2");
    assertThat(pairs.figures().baseline()).containsExactly(1.0, 3.0);
  }

  @Test
  void aPairingLabelARunLacksIsBadInputNamingTheRun() {
    Sides<Map<String, Map<String, String>>> labels = Sides.of(runs("b1", "1", "b2", "2"),
        Map.of("c1", Map.of("design", "duet")));
    assertThatThrownBy(() -> PairKeys.of(labels, List.of("round"), "--pair-by round"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--pair-by round: candidate run c1 has no label 'round', so it cannot be paired");
  }

  @Test
  void twoRunsOfOneSideWithOneKeyDoNotLineUp() {
    Sides<Map<String, Map<String, String>>> labels = Sides.of(runs("b1", "1", "b2", "1"), runs("c1", "1"));
    assertThatThrownBy(() -> PairKeys.of(labels, List.of("round"), "--pair-by round"))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("pairs do not line up: baseline runs b1 and b2 both have round=1");
  }

  /** Duet runs by id, each with its round: id, round, id, round, … */
  private static Map<String, Map<String, String>> runs(String... idAndRound) {
    Map<String, Map<String, String>> runs = new LinkedHashMap<>();
    for (int i = 0; i < idAndRound.length; i += 2) {
      runs.put(idAndRound[i], Map.of("design", "duet", "round", idAndRound[i + 1]));
    }
    return runs;
  }

  private static Map<String, Double> figures(Object... idAndFigure) {
    Map<String, Double> figures = new LinkedHashMap<>();
    for (int i = 0; i < idAndFigure.length; i += 2) {
      figures.put((String) idAndFigure[i], (Double) idAndFigure[i + 1]);
    }
    return figures;
  }
}
