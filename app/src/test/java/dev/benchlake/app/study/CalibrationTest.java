package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/** calibrate's figures from its rows: covered, bias, detected, detectable, and the table that says them. */
class CalibrationTest {
  private static Calibration.Row row(String design, double size, String step, double ratio, double low, double high,
      Verdict verdict) {
    return new Calibration.Row(design, size, step, ratio, new Range(low, high), verdict);
  }

  @Test
  void eachRowSaysWhetherItsIntervalHoldsTheExpectedRatioAndByHowMuchItIsOff() {
    Calibration.Row hit = row("duet", 0.10, "point-select", 1.111, 1.002, 1.231, Verdict.SLOWER);
    assertThat(hit.expected()).isEqualTo(1.1);
    assertThat(hit.covered()).isTrue();
    assertThat(hit.bias()).isCloseTo(0.01, within(1e-12));
    assertThat(hit.detected()).isTrue();
    // half-width on the log scale ln(1.231/1.002)/2 = 0.1029, x 2.80/1.96 = 0.1470: +15.8 %
    assertThat(hit.detectable()).isCloseTo(Math.exp(Math.log(1.231 / 1.002) / 2 * 2.8 / 1.96) - 1, within(1e-12))
        .isCloseTo(0.158, within(0.001));
    Calibration.Row miss = row("duet", 0.10, "read-only", 1.263, 1.133, 1.408, Verdict.SLOWER);
    assertThat(miss.covered()).isFalse();
    Calibration.Row none = new Calibration.Row("duet", 0.05, "read-only", null, Range.UNBOUNDED, null);
    assertThat(none.covered()).isFalse();
    assertThat(none.bias()).isNull();
    assertThat(none.detectable()).isNull();
  }

  @Test
  void aSizeIsDetectedWhenEveryStepOfItIsCalledSlowerAndMissesAreNamed() {
    Calibration c = new Calibration(List.of(
        row("duet", 0.03, "point-select", 1.02, 0.99, 1.05, Verdict.INCONCLUSIVE),
        row("duet", 0.05, "point-select", 1.05, 1.02, 1.08, Verdict.SLOWER),
        row("duet", 0.05, "read-only", 1.06, 1.01, 1.11, Verdict.SLOWER),
        row("interleaved", 0.05, "point-select", 0.89, 0.67, 1.19, Verdict.INCONCLUSIVE),
        row("interleaved", 0.05, "read-only", 1.30, 1.20, 1.40, Verdict.SLOWER)), List.of());
    assertThat(c.smallestDetected("duet")).hasValue(0.05);
    assertThat(c.smallestDetected("interleaved")).isEmpty();
    assertThat(c.missed()).extracting(Calibration.Row::step).containsExactly("read-only");
    assertThat(c.markdown())
        .contains("| duet | 3% | `point-select` | 1.030 | 1.020 | [0.990, 1.050] | yes | -1.0% | inconclusive |")
        .contains("| interleaved | 5% | `read-only` | 1.050 | 1.300 | [1.200, 1.400] | **no** | +23.8% | slower |")
        .contains("- duet: the smallest size detected on every step (called slower) 5%;")
        .contains("- interleaved: no size run (5%) was detected on every step (called slower);")
        .contains("- Missed: interleaved 5% read-only, the 95 % interval [1.200, 1.400] does not hold 1.050");
    assertThat(c.json().get("rows")).hasSize(5);
    assertThat(c.json().get("rows").get(4).get("covered").asBoolean()).isFalse();
  }

  /** Issue 46.1: the top-level report says what each design's studies measured, as every comparison does. */
  @Test
  void theReportCarriesEachDesignsScope() {
    dev.benchlake.analysis.report.Scope duet = new dev.benchlake.analysis.report.Scope(
        List.of(new dev.benchlake.analysis.report.Scope.Fact("design", "design", "duet, CPU sets swapped")),
        List.of("a", "b"), List.of(new dev.benchlake.analysis.report.Scope.Line("server", "server",
            List.of("PostgreSQL 17.2", "PostgreSQL 17.2"))));
    Calibration c = new Calibration(List.of(row("duet", 0.05, "point-select", 1.05, 1.02, 1.08, Verdict.SLOWER)),
        List.of(), java.util.Map.of("duet", duet));
    assertThat(c.markdown()).contains("## Scope of the duet studies\n\n").contains("- design: duet, CPU sets swapped")
        .contains("| server | PostgreSQL 17.2 | PostgreSQL 17.2 |");
    assertThat(c.json().get("scope").get("duet").get("design").asText()).isEqualTo("duet, CPU sets swapped");
    assertThat(c.json().get("scope").get("duet").get("groups").get("b").get("server").asText())
        .isEqualTo("PostgreSQL 17.2");
  }
}
