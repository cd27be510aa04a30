package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The pairs of a paired analysis as report.json and trend.json write them: {@code {"count",
 * "pairs": [{"key", "baseline", "candidate"}], "dropped": [{"run_id", "side", "key", "reason"}]}}, each
 * pair with {@code baseline_cpus} and {@code candidate_cpus} where its runs carry a CPU set;
 * null for the unpaired analysis.
 */
public final class PairsJson {
  private PairsJson() {}

  /** @param owner the node the result goes into (for its node factory) */
  public static ObjectNode of(ObjectNode owner, RunPairs pairs) {
    if (pairs == null) {
      return null;
    }
    ObjectNode node = owner.objectNode();
    node.put("count", pairs.size());
    ArrayNode used = node.putArray("pairs");
    for (RunPairs.Pair pair : pairs.pairs()) {
      ObjectNode p = used.addObject();
      p.put("key", pair.key());
      p.put("baseline", pair.runIds().baseline());
      p.put("candidate", pair.runIds().candidate());
      if (pair.cpuSets() != null) {
        p.put("baseline_cpus", pair.cpuSets().baseline());
        p.put("candidate_cpus", pair.cpuSets().candidate());
      }
    }
    ArrayNode dropped = node.putArray("dropped");
    for (RunPairs.Dropped run : pairs.dropped()) {
      ObjectNode d = dropped.addObject();
      d.put("run_id", run.runId());
      d.put("side", run.side().label());
      d.put("key", run.key());
      d.put("reason", run.reason());
    }
    return node;
  }
}
