package dev.benchlake.analysis.confounders;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.List;

/**
 * A reason a step's figures may not compare the servers alone, with the figures behind it.
 *
 * @param kind {@code dead_tuples} (the dead-tuple fraction at the step's start differs by more
 *     than the threshold), {@code autovacuum} / {@code autoanalyze} (it ran during one side's step
 *     and not the other's), or {@code not_recorded} (a side's runs carry no table health: nothing
 *     is known, which is not the same as clean)
 * @param detail one sentence with the figures
 */
public record Confounder(String kind, String detail) {
  public static final String DEAD_TUPLES = "dead_tuples";
  public static final String AUTOVACUUM = "autovacuum";
  public static final String AUTOANALYZE = "autoanalyze";
  public static final String NOT_RECORDED = "not_recorded";

  /** Whether this is a flag (the table-maintenance state differs), not a lack of data. */
  public boolean flags() {
    return !kind.equals(NOT_RECORDED);
  }

  /** Whether any of {@code confounders} is a flag. */
  public static boolean anyFlag(List<Confounder> confounders) {
    return confounders != null && confounders.stream().anyMatch(Confounder::flags);
  }

  /**
   * The short mark a verdict carries: {@code confounded: dead_tuples, autovacuum}, or null when
   * nothing is flagged (a lack of table health is no flag: the reports say "not recorded" apart).
   */
  public static String mark(List<Confounder> confounders) {
    if (confounders == null) {
      return null;
    }
    List<String> kinds = confounders.stream().filter(Confounder::flags).map(Confounder::kind).distinct().toList();
    return kinds.isEmpty() ? null : "confounded: " + String.join(", ", kinds);
  }

  /** Whether {@code confounders} says a side's table health was not recorded. */
  public static boolean notRecorded(List<Confounder> confounders) {
    return confounders != null && confounders.stream().anyMatch(c -> !c.flags());
  }

  /**
   * The JSON both report.json and trend.json carry: {@code [{"kind", "detail"}]}, empty when the
   * sides ran in the same state, null when not checked.
   */
  public static ArrayNode json(List<Confounder> confounders) {
    if (confounders == null) {
      return null;
    }
    ArrayNode list = JsonNodeFactory.instance.arrayNode();
    confounders.forEach(c -> list.addObject().put("kind", c.kind()).put("detail", c.detail()));
    return list;
  }
}
