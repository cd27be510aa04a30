package dev.benchlake.analysis.stats;

import java.util.Locale;

/**
 * Cliff's delta, candidate against baseline: {@code δ = P(c > b) − P(c < b)} over all
 * candidate/baseline pairs, in [−1, 1]; positive when the candidate tends to be larger (slower).
 * It follows from the Mann–Whitney U of the candidate ({@code U = #(c > b) + ½·#(c = b)}):
 * {@code δ = 2U/(n_c·n_b) − 1}, so ties count as neither.
 *
 * <p>Magnitude labels of Romano et al. (2006): |δ| < 0.147 negligible, < 0.33 small, < 0.474
 * medium, otherwise large.
 */
public final class CliffsDelta {
  /** The conventional magnitude of |δ|. */
  public enum Magnitude {
    NEGLIGIBLE, SMALL, MEDIUM, LARGE;

    /** The label used in reports: {@code negligible}, {@code small} … */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private CliffsDelta() {}

  /** δ from the candidate's U and the sample sizes (both at least 1). */
  public static double fromU(double u, long nCandidate, long nBaseline) {
    return 2 * u / ((double) nCandidate * nBaseline) - 1;
  }

  public static Magnitude magnitude(double delta) {
    double size = Math.abs(delta);
    if (size < 0.147) {
      return Magnitude.NEGLIGIBLE;
    }
    if (size < 0.33) {
      return Magnitude.SMALL;
    }
    return size < 0.474 ? Magnitude.MEDIUM : Magnitude.LARGE;
  }
}
