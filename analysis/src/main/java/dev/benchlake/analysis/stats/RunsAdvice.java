package dev.benchlake.analysis.stats;

/**
 * What more runs would do for an inconclusive call ({@link RunsNeeded#advise}). A count is only
 * ever more than the runs each side already has: a plan that the present runs already meet is no
 * advice to run more.
 *
 * @param runsPerGroup the runs per group planned; 0 where {@link #basis} gives none
 */
public record RunsAdvice(Basis basis, int runsPerGroup) {
  /** What the count rests on, or why there is none. */
  public enum Basis {
    /** Power to detect a change of the margin's size, or to show equivalence when θ = 1. */
    MARGIN,
    /**
     * The present runs would meet the margin's plan, yet θ lies between no change and the margin:
     * power to decide at the observed θ (equivalence inside the band, a difference beyond it).
     */
    OBSERVED_EFFECT,
    /** θ lies at the edge of the band: no number of runs decides a change of the margin's own size. */
    EDGE_OF_MARGIN,
    /** The present runs already have the power at the margin and at the observed θ: more are not planned. */
    ALREADY_POWERED
  }

  /** The runs per group to plan for, or null where the basis gives none. */
  public Integer runs() {
    return basis == Basis.MARGIN || basis == Basis.OBSERVED_EFFECT ? runsPerGroup : null;
  }
}
