package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The one definition of α, the margin and the correction: ranges, defaults, parsing, messages. */
class StatisticsSettingsTest {
  @Test
  void theDefaultsAreTheHelpsTextsParsed() {
    assertThat(StatisticsSettings.DEFAULTS).isEqualTo(new StatisticsSettings(0.05, 0.05, Correction.HOLM));
    assertThat(StatisticsSettings.parse("0.05", "5%", "holm")).isEqualTo(StatisticsSettings.DEFAULTS);
    assertThat(StatisticsSettings.parse(" 0.01 ", "0.1", "BH"))
        .isEqualTo(new StatisticsSettings(0.01, 0.1, Correction.BH));
    assertThat(StatisticsSettings.parse("0.05", "5%", "none").correction()).isEqualTo(Correction.NONE);
    assertThat(Correction.labels()).containsExactly("holm", "bh", "none");
    assertThat(StatisticsSettings.DEFAULTS.decisionConfidence()).isEqualTo(0.95);
    assertThat(StatisticsSettings.DEFAULTS.equivalenceConfidence()).isEqualTo(0.9);
  }

  @ParameterizedTest(name = "--alpha {0}")
  @CsvSource({"0, --alpha 0 is not in (0, 0.5)", "0.5, --alpha 0.5 is not in (0, 0.5)",
      "0.7, --alpha 0.7 is not in (0, 0.5)", "-0.1, --alpha -0.1 is not in (0, 0.5)", "NaN, --alpha NaN is not in (0, 0.5)",
      "abc, --alpha 'abc' is not a number", "'', --alpha '' is not a number"})
  void anAlphaOutsideItsRangeIsOneMessage(String alpha, String message) {
    assertThatThrownBy(() -> StatisticsSettings.parse(alpha, "5%", "holm")).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(message).hasMessageNotContaining("\n");
  }

  @ParameterizedTest(name = "--margin {0}")
  @CsvSource({"0, --margin 0 is not in (0, 1)", "0%, --margin 0 is not in (0, 1)", "1, --margin 1 is not in (0, 1)",
      "150%, --margin 1.5 is not in (0, 1)", "5, --margin 5 is not in (0, 1)", "-2%, --margin -0.02 is not in (0, 1)",
      "five, --margin 'five' is not a fraction or a percentage", "%, --margin '%' is not a fraction or a percentage"})
  void aMarginOutsideItsRangeIsOneMessage(String margin, String message) {
    assertThatThrownBy(() -> StatisticsSettings.parse("0.05", margin, "holm")).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith(message).hasMessageNotContaining("\n");
  }

  @Test
  void aCorrectionNotAmongTheChoicesNamesThem() {
    assertThatThrownBy(() -> StatisticsSettings.parse("0.05", "5%", "sidak")).isInstanceOf(BadInputException.class)
        .hasMessage("--correction 'sidak' is not one of " + String.join(", ", Correction.labels()));
  }

  @Test
  void theSameRangesHoldForSettingsMadeInCode() {
    assertThatThrownBy(() -> StatisticsSettings.DEFAULTS.withAlpha(0.5)).hasMessageStartingWith("--alpha 0.5 is not in");
    assertThatThrownBy(() -> StatisticsSettings.DEFAULTS.withMargin(0)).hasMessageStartingWith("--margin 0 is not in");
    assertThat(StatisticsSettings.DEFAULTS.withAlpha(0.49).withMargin(0.99).alpha()).isEqualTo(0.49);
  }

  @Test
  void optionsGiveBackWhatDiffersFromTheDefaults() {
    assertThat(StatisticsSettings.DEFAULTS.options()).isEmpty();
    assertThat(new StatisticsSettings(0.01, 0.1, Correction.BH).options())
        .isEqualTo(List.of("--alpha", "0.01", "--margin", "0.1", "--correction", "bh"));
    StatisticsSettings back = StatisticsSettings.parse("0.01", "0.1", "bh");
    assertThat(back).isEqualTo(new StatisticsSettings(0.01, 0.1, Correction.BH));
  }
}
