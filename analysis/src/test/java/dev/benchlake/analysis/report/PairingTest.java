package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which analysis a comparison's runs get, from their labels or {@code --pair-by} ({@link Pairing#choose}). */
class PairingTest {
  @Test
  void duetRunsArePairedByRoundOtherRunsNotAtAll() {
    Pairing duet = Pairing.choose(Sides.of(runs("b", Map.of("design", "duet")), runs("c", Map.of("design", "duet"))),
        List.of());
    assertThat(duet.design()).isEqualTo("duet");
    assertThat(duet.paired()).isTrue();
    assertThat(duet.analysis()).isEqualTo("paired");
    assertThat(((PairedByKey) duet.method()).pairs(Sides.of(figures("b"), figures("c"))).pairs())
        .extracting(RunPairs.Pair::key).containsExactly("round=1", "round=2");

    Pairing interleaved = Pairing.choose(Sides.of(runs("b", Map.of("design", "interleaved")),
        runs("c", Map.of("design", "interleaved"))), List.of());
    assertThat(interleaved).isSameAs(Pairing.UNPAIRED);
    assertThat(interleaved.analysis()).isEqualTo("unpaired");
    // A duet on one side only is not a duet: the sides were not measured together.
    assertThat(Pairing.choose(Sides.of(runs("b", Map.of("design", "duet")), runs("c", Map.of())), List.of()))
        .isSameAs(Pairing.UNPAIRED);
  }

  @Test
  void aDuetOfSeveralMajorsPairsByRoundAndPair() {
    Pairing duet = Pairing.choose(Sides.of(runs("b", Map.of("design", "duet", "pair", "11v14")),
        runs("c", Map.of("design", "duet", "pair", "11v14"))), List.of());
    assertThat(((PairedByKey) duet.method()).pairs(Sides.of(figures("b"), figures("c"))).pairs())
        .extracting(RunPairs.Pair::key).containsExactly("round=1, pair=11v14", "round=2, pair=11v14");
  }

  @Test
  void pairByNamesTheDesignAndOverridesTheDuet() {
    Pairing byRound = Pairing.choose(Sides.of(runs("b", Map.of()), runs("c", Map.of())), List.of("round"));
    assertThat(byRound.design()).isEqualTo("paired-by:round");
    assertThat(byRound.reason()).startsWith("--pair-by round pairs each baseline run with the candidate run of the same"
        + " round");
  }

  @Test
  void aPairByLabelTheRunsLackIsBadInputNamingTheRunAndWhatToDo() {
    assertThatThrownBy(() -> Pairing.choose(Sides.of(runs("b", Map.of()), runs("c", Map.of())), List.of("batch")))
        .isInstanceOf(BadInputException.class)
        .hasMessage("--pair-by batch: baseline run b1 has no label 'batch', so it cannot be paired; pair by a label"
            + " every run carries (benchlake runs lists them), or leave the option out for the unpaired analysis");
    assertThatThrownBy(() -> Pairing.choose(Sides.of(runs("b", Map.of()), runs("c", Map.of())), List.of(" ")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("a label name is empty");
  }

  @Test
  void duetRunsThatDoNotLineUpAreBadInput() {
    Map<String, Map<String, String>> twice = new LinkedHashMap<>();
    twice.put("b1", Map.of("design", "duet", "round", "1"));
    twice.put("b2", Map.of("design", "duet", "round", "1"));
    assertThatThrownBy(() -> Pairing.choose(Sides.of(twice, runs("c", Map.of("design", "duet"))), List.of()))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("pairs do not line up: baseline runs b1 and b2 both have round=1");
  }

  /** Runs {@code x1}, {@code x2} of rounds 1 and 2 with {@code more} labels. */
  private static Map<String, Map<String, String>> runs(String side, Map<String, String> more) {
    Map<String, Map<String, String>> runs = new LinkedHashMap<>();
    for (int round = 1; round <= 2; round++) {
      Map<String, String> labels = new LinkedHashMap<>(more);
      labels.put("round", Integer.toString(round));
      runs.put(side + round, labels);
    }
    return runs;
  }

  private static Map<String, Double> figures(String side) {
    Map<String, Double> figures = new LinkedHashMap<>();
    figures.put(side + "1", 1.0);
    figures.put(side + "2", 2.0);
    return figures;
  }
}
