package dev.benchlake.analysis.stats;

import org.apache.commons.math3.special.Erf;

/** The standard normal distribution's upper tail, accurate far into the tail. */
final class NormalTail {
  /** z such that P(Z > z) = 0.025. */
  static final double Z_975 = 1.959963984540054;

  private NormalTail() {}

  /** P(Z > z) for a standard normal Z, computed as erfc(z/√2)/2 (no cancellation). */
  static double survival(double z) {
    return 0.5 * Erf.erfc(z / Math.sqrt(2));
  }
}
