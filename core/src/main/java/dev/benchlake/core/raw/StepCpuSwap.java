package dev.benchlake.core.raw;

/**
 * A duet's in-window CPU swap during one step's measured window ({@code step_cpu_swaps} in the
 * manifest), as its coordinator timed it: the moves begun in the window, how long they took, and
 * how much of the window had a move under way. While a move runs one side is on its new set and the
 * other not yet, so the two share one set: that share of the window is not measured as the design
 * says. Per pair, not per side: one move moves both sides, and both sides' manifests carry the same
 * figures. Absent in manifests written before it was recorded, and in runs that swapped nothing
 * inside their windows (additive: the format version stays).
 *
 * @param step the step's name
 * @param measuredNs the measured window's length (for a step of a number of tasks, to the next
 *     step's start or the end of the run)
 * @param moves moves begun in the window
 * @param meanMoveNs how long they took on average (0 when there were none)
 * @param longestMoveNs the longest of them
 * @param underWayNs the part of the window with a move under way (one begun before it counts from the window's start)
 */
public record StepCpuSwap(String step, long measuredNs, int moves, long meanMoveNs, long longestMoveNs,
    long underWayNs) {
  /** The share of the window with a move under way, 0 to 1 (0 for an empty window). */
  public double underWayShare() {
    return measuredNs <= 0 ? 0 : Math.min(1, (double) underWayNs / measuredNs);
  }
}
