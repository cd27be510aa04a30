package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

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
    PairedLogRatio theta = new PairedByKey(keys).estimate(figures);
    // Every pair's ratio is 1.1: the rounds' ±30 % swing cancels.
    assertThat(theta.pairs()).isEqualTo(3);
    assertThat(theta.ratio()).isCloseTo(1.1, within(1e-12));
    assertThat(theta.sdLogDifference()).isLessThan(1e-12);
    assertThat(new PairedByKey(keys).name()).isEqualTo("paired");
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
