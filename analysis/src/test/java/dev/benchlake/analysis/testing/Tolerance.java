package dev.benchlake.analysis.testing;

import static org.assertj.core.api.Assertions.assertThat;

/** Comparisons of computed numbers with reference numbers. */
public final class Tolerance {
  private Tolerance() {}

  /** Equal within {@code relative} of the reference (absolutely below 1e-300); NaN only for NaN. */
  public static void assertClose(String what, double actual, double expected, double relative) {
    if (Double.isNaN(expected)) {
      assertThat(actual).as(what + " (undefined in the reference)").isNaN();
      return;
    }
    double allowed = Math.max(Math.abs(expected) * relative, 1e-300);
    assertThat(actual).as(what).isCloseTo(expected, org.assertj.core.data.Offset.offset(allowed));
  }
}
