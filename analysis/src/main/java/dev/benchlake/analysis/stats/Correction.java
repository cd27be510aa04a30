package dev.benchlake.analysis.stats;

import java.util.Locale;

/** How p-values are adjusted across the steps of one comparison or trend. */
public enum Correction {
  /** Holm's step-down: family-wise error rate (default). */
  HOLM,
  /** Benjamini–Hochberg: false discovery rate. */
  BH;

  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  public double[] adjust(double[] p) {
    return this == HOLM ? MultipleComparisons.holm(p) : MultipleComparisons.benjaminiHochberg(p);
  }

  /**
   * The level the smallest of {@code family} p-values must reach to be significant after this
   * correction, in the best case: α/m for Holm, α for Benjamini–Hochberg (when every step is
   * equally extreme).
   */
  public double bestCaseLevel(double alpha, int family) {
    return this == HOLM ? alpha / Math.max(1, family) : alpha;
  }
}
