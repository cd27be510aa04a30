package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.StatisticsSettings;
import org.junit.jupiter.api.Test;

/** The warning of {@code --correction none} (issue 26 item 6): over more than one test, and only then. */
class UncorrectedTest {
  private static final StatisticsSettings NONE = StatisticsSettings.DEFAULTS.withCorrection(Correction.NONE);

  @Test
  void overSeveralTestsTheReportSaysHowManyFalseCallsToExpect() {
    assertThat(Uncorrected.warnings(NONE, 12, "steps")).containsExactly("Uncorrected (--correction none) over 12 steps:"
        + " expect about α·N = 0.6 false calls where nothing changed; none is meant for a single pre-registered step or"
        + " family.");
    assertThat(Uncorrected.warnings(NONE.withAlpha(0.01), 200, "steps")).singleElement().asString()
        .contains("over 200 steps: expect about α·N = 2 false calls");
    assertThat(Uncorrected.warnings(NONE, 3, "steps")).singleElement().asString()
        .contains("over 3 steps: expect about α·N = 0.15 false calls");
  }

  @Test
  void aSingleTestOrACorrectedFamilyHasNothingToWarnOf() {
    assertThat(Uncorrected.warnings(NONE, 1, "steps")).isEmpty();
    assertThat(Uncorrected.warnings(NONE, 0, "steps")).isEmpty();
    assertThat(Uncorrected.warnings(StatisticsSettings.DEFAULTS, 200, "steps")).isEmpty();
    assertThat(Uncorrected.warnings(StatisticsSettings.DEFAULTS.withCorrection(Correction.BH), 200, "steps")).isEmpty();
  }
}
