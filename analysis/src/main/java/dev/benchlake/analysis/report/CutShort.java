package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A study that stopped before its plan's end (a side's process died, a run failed, the study was
 * interrupted): how far it got and why. Its reports, made from the rounds it completed, lead with
 * {@link #sentence}, and its study.json records it ({@code cut_short}), so that a study cut short
 * never passes for a finished one.
 *
 * @param roundsComplete the rounds every measurement of which completed (they run in order: rounds 1 to this)
 * @param roundsPlanned the rounds the plan had (a study run until decided: at most)
 * @param atMost whether {@code roundsPlanned} is a most (run until decided) rather than the plan's count
 * @param reason what stopped it, one line
 */
public record CutShort(int roundsComplete, int roundsPlanned, boolean atMost, String reason) {
  /** {@code Cut short after round 3 of 8: side b … was killed (signal 9). These results cover rounds 1-3 only.} */
  public String sentence() {
    String of = (atMost ? " of at most " : " of ") + roundsPlanned;
    String where = roundsComplete == 0 ? "Cut short before round 1" + of + " ended"
        : "Cut short after round " + roundsComplete + of;
    String covers = roundsComplete == 0 ? "" : roundsComplete == 1 ? " These results cover round 1 only."
        : " These results cover rounds 1-" + roundsComplete + " only.";
    return where + ": " + reason.strip() + (reason.strip().endsWith(".") ? "" : ".") + covers;
  }

  /** The JSON of it ({@code cut_short} in study.json and in the reports). */
  public void json(ObjectNode node) {
    node.put("after_round", roundsComplete);
    node.put(atMost ? "of_at_most_rounds" : "of_rounds", roundsPlanned);
    node.put("reason", reason);
    node.put("sentence", sentence());
  }
}
