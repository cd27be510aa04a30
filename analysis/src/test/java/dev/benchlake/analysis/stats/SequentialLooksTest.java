package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Studies looked at after every round, against {@code make_reference.py} ({@code sequential_looks}):
 * the Haybittle–Peto levels written out in Python, each look decided by the documented rule on
 * scipy's {@code ttest_1samp} of the per-pair log ratios (Holm/BH from the reference adjusters),
 * the study stopped where Python stops it, and the runs a new study would need after the last.
 */
class SequentialLooksTest {
  private static final StatisticsSettings SETTINGS = new StatisticsSettings(0.05, 0.05, Correction.HOLM);

  static List<JsonNode> cases() {
    return Reference.nodes("sequential_looks");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void looksAsTheReference(JsonNode c) {
    Correction correction = Correction.valueOf(c.get("correction").asText().toUpperCase(Locale.ROOT));
    StatisticsSettings settings = new StatisticsSettings(c.get("alpha").asDouble(), c.get("margin").asDouble(),
        correction);
    SequentialLooks plan = SequentialLooks.haybittlePeto(settings, c.get("first_look").asInt(),
        c.get("max_rounds").asInt());
    assertThat(plan.levels()).hasSize(c.get("levels").size());
    for (int k = 0; k < plan.levels().size(); k++) {
      assertThat(plan.levels().get(k)).isCloseTo(c.get("levels").get(k).asDouble(), within(1e-15));
    }
    boolean lowerIsBetter = c.get("lower_is_better").asBoolean();
    List<Integer> roundsLooked = new ArrayList<>();
    SequentialLooks.Look look = null;
    List<PairedLogRatio> steps = null;
    for (int round = plan.firstLook(); look == null || !look.stop(); round++) {
      steps = pairsSoFar(c.get("steps"), round);
      look = plan.decide(round, steps, lowerIsBetter);
      JsonNode expected = c.get("looks").get(roundsLooked.size());
      roundsLooked.add(round);
      assertThat(look.round()).isEqualTo(expected.get("round").asInt());
      assertThat(look.alpha()).isCloseTo(expected.get("alpha").asDouble(), within(1e-15));
      assertThat(look.stop()).as("stop after round %d", round).isEqualTo(expected.get("stop").asBoolean());
      for (int i = 0; i < steps.size(); i++) {
        Decision d = look.decisions().get(i);
        JsonNode e = expected.get("steps").get(i);
        assertThat(d.verdict().jsonName()).as("round %d step %d", round, i).isEqualTo(e.get("verdict").asText());
        assertThat(d.pDifferenceAdjusted()).isCloseTo(e.get("p_difference_adjusted").asDouble(), within(1e-8));
        assertThat(d.pEquivalenceAdjusted()).isCloseTo(e.get("p_equivalence_adjusted").asDouble(), within(1e-8));
        assertThat(d.runsNeeded()).as("an interim look plans nothing").isNull();
        Reference.assertInterval(steps.get(i).interval(1 - look.alpha()), e.get("ci_decision"));
        Reference.assertInterval(steps.get(i).interval(1 - 2 * look.alpha()), e.get("ci_equivalence"));
      }
    }
    assertThat(roundsLooked).hasSize(c.get("looks").size());
    // After the last look, what a new study would need: the plan at the last look's level.
    if (look.round() == plan.maxRounds()) {
      List<Decision> planned = RatioDecisions.decide(steps, plan.settingsAt(plan.maxRounds()), lowerIsBetter);
      JsonNode last = c.get("looks").get(roundsLooked.size() - 1).get("steps");
      for (int i = 0; i < planned.size(); i++) {
        JsonNode e = last.get(i);
        Decision d = planned.get(i);
        if (e.has("runs_needed_basis")) {
          assertThat(d.runsNeeded().basis().name().toLowerCase(Locale.ROOT)).isEqualTo(e.get("runs_needed_basis").asText());
          assertThat(d.runsNeeded().runs() == null ? 0 : d.runsNeeded().runs()).isEqualTo(e.get("runs_needed").asInt());
        } else {
          assertThat(d.runsNeeded()).isNull();
        }
      }
    }
  }

  @Test
  void theReferenceStopsEarlyAndRunsToTheEnd() {
    // Guards the fixture: a study that stops before its last round, and one that does not.
    assertThat(cases()).anySatisfy(c -> assertThat(c.get("looks").size()).isLessThan(c.get("levels").size()));
    assertThat(cases()).anySatisfy(c -> {
      JsonNode looks = c.get("looks");
      assertThat(looks.get(looks.size() - 1).get("round").asInt()).isEqualTo(c.get("max_rounds").asInt());
      assertThat(looks.get(looks.size() - 1).get("steps").findValuesAsText("verdict")).contains("inconclusive");
    });
  }

  @Test
  void theLevelsSpendAlphaExactly() {
    SequentialLooks tenRounds = SequentialLooks.haybittlePeto(SETTINGS, 3, 10);
    assertThat(tenRounds.looks()).isEqualTo(8);
    assertThat(tenRounds.levels()).startsWith(0.001, 0.001).hasSize(8);
    assertThat(tenRounds.alphaAt(10)).isCloseTo(0.043, within(1e-12));
    assertThat(tenRounds.levels().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(0.05, within(1e-15));
    // 40 interim looks would spend 0.04 at 0.001 each: the interim level drops to α/(2·40).
    SequentialLooks many = SequentialLooks.haybittlePeto(SETTINGS, 3, 43);
    assertThat(many.alphaAt(3)).isCloseTo(0.05 / 80, within(1e-15));
    assertThat(many.alphaAt(43)).isCloseTo(0.025, within(1e-12));
    SequentialLooks one = SequentialLooks.haybittlePeto(SETTINGS, 5, 5);
    assertThat(one.levels()).containsExactly(0.05);
    assertThat(one.settingsAt(5)).isEqualTo(SETTINGS);
  }

  /**
   * A study its budget ends early decides its last look at what the plan has left (issue 47): the
   * 30-minute version study planned looks after rounds 3 to 30 (27 interim at
   * 0.025/27) and stopped after round 21, whose look had 0.05 − 18 · 0.025/27 = 1/30 left, not the
   * interim 0.000926 it was decided at.
   */
  @Test
  void aLastLookBeforeThePlansLastSpendsWhatIsLeft() {
    SequentialLooks thirty = SequentialLooks.haybittlePeto(SETTINGS, 3, 30);
    assertThat(thirty.alphaAt(21)).isCloseTo(0.025 / 27, within(1e-15));
    assertThat(thirty.alphaLeftAt(21)).isCloseTo(0.05 - 18 * 0.025 / 27, within(1e-15));
    assertThat(thirty.settingsLastAt(21).alpha()).isCloseTo(1 / 30.0, within(1e-15));
    assertThat(thirty.settingsLastAt(21).margin()).isEqualTo(SETTINGS.margin());
    assertThat(thirty.alphaLeftAt(3)).isCloseTo(0.05, within(1e-15));
    assertThat(thirty.alphaLeftAt(30)).isEqualTo(thirty.alphaAt(30));
    SequentialLooks ten = SequentialLooks.haybittlePeto(SETTINGS, 3, 10);
    assertThat(ten.alphaLeftAt(7)).isCloseTo(0.05 - 4 * 0.001, within(1e-15));
  }

  /**
   * Lan–DeMets' O'Brien–Fleming-like spending split by Bonferroni, the strongest alternative the
   * boundaries' simulation compared (log, 2026-12-06, late): levels against scipy
   * ({@code 2·norm.sf(norm.ppf(1 − α/2)/√(r/10))}, differenced), summing to α exactly.
   */
  @Test
  void aSpendingFunctionsLevelsAreItsIncrementsAndSumToAlpha() {
    SequentialLooks plan = SequentialLooks.spending(SETTINGS, 3, 10, SequentialLooks.obrienFlemingShare(0.05),
        "Lan–DeMets O'Brien–Fleming-like spending");
    double[] scipy = {0.0003457195801690441, 0.0015961934165718043, 0.003632683684043567, 0.005821821784528772,
        0.007753224920269709, 0.009279987367489806, 0.010400412411451027, 0.011169956835476273};
    assertThat(plan.levels()).hasSize(scipy.length);
    for (int k = 0; k < scipy.length; k++) {
      assertThat(plan.levels().get(k)).as("look %d", k).isCloseTo(scipy[k], within(1e-12));
    }
    assertThat(plan.levels().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(0.05, within(1e-15));
    assertThat(plan.rule()).isEqualTo("Lan–DeMets O'Brien–Fleming-like spending");
    assertThat(plan.inWords()).isEqualTo("looks after rounds 3 to 9 at α = 0.0003457, 0.001596, 0.003633, 0.005822,"
        + " 0.007753, 0.00928, 0.0104 and after round 10 at α = 0.01117 (together α = 0.05)");
    assertThat(SequentialLooks.haybittlePeto(SETTINGS, 3, 10).rule()).isEqualTo(SequentialLooks.NAME);
  }

  @Test
  void thePlanInWords() {
    assertThat(SequentialLooks.haybittlePeto(SETTINGS, 3, 10).inWords())
        .isEqualTo("looks after rounds 3 to 9 at α = 0.001 each and after round 10 at α = 0.043 (together α = 0.05)");
    assertThat(SequentialLooks.haybittlePeto(SETTINGS, 3, 4).inWords())
        .isEqualTo("looks after round 3 at α = 0.001 and after round 4 at α = 0.049 (together α = 0.05)");
    assertThat(SequentialLooks.haybittlePeto(SETTINGS, 3, 3).inWords()).isEqualTo("one look, after round 3 at α = 0.05");
  }

  @Test
  void nothingStopsBeforeTheFirstLookAndEverythingStopsAtTheLast() {
    SequentialLooks plan = SequentialLooks.haybittlePeto(SETTINGS, 3, 6);
    PairedLogRatio clear = PairedLogRatio.of(new double[] {100, 130, 70, 115}, new double[] {150, 196, 104, 173});
    List<Decision> decided = RatioDecisions.decideWithoutPlanning(List.of(clear), SETTINGS, true);
    assertThat(decided.get(0).verdict()).isEqualTo(Verdict.SLOWER);
    assertThat(plan.stopsAfter(2, decided)).isFalse();
    assertThat(plan.stopsAfter(4, decided)).isTrue();
    List<Decision> undecided = Arrays.asList((Decision) null);
    assertThat(plan.stopsAfter(5, undecided)).isFalse();
    assertThat(plan.stopsAfter(6, undecided)).isTrue();
    assertThatThrownBy(() -> plan.alphaAt(2)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void refusesAPlanThatNeverLooks() {
    assertThatThrownBy(() -> SequentialLooks.haybittlePeto(SETTINGS, 3, 2)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--max-rounds 2 is below the first look (after round 3)");
    assertThatThrownBy(() -> SequentialLooks.haybittlePeto(SETTINGS, 2, 10)).isInstanceOf(IllegalArgumentException.class)
        .isNotInstanceOf(BadInputException.class);
    assertThatThrownBy(() -> new SequentialLooks(SETTINGS, 3, 10, "too much", java.util.Collections.nCopies(8, 0.01)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new SequentialLooks(SETTINGS, 3, 10, "one short", java.util.Collections.nCopies(7, 0.001)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  /** Each step's first {@code round} pairs. */
  private static List<PairedLogRatio> pairsSoFar(JsonNode steps, int round) {
    List<PairedLogRatio> out = new ArrayList<>();
    for (JsonNode s : steps) {
      out.add(PairedLogRatio.of(Arrays.copyOf(Reference.doubles(s.get("baseline")), round),
          Arrays.copyOf(Reference.doubles(s.get("candidate")), round)));
    }
    return out;
  }
}
