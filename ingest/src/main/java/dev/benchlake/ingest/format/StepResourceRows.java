package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.ResourceMetric;
import dev.benchlake.core.raw.StepResources;
import dev.benchlake.ingest.parse.ParsedMetric;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;

/**
 * A manifest's {@code step_resources} entry as {@code step_metrics} rows: one whole-step row per
 * {@link ResourceMetric} that was measured, under each of the step's task names (the {@code step}
 * its tasks carry, as its table health). A figure not measured gives no row: a reader finds it
 * missing, never zero.
 *
 * <p>Counters read over the step's measured window add a {@value StepResources#WINDOW_METRIC} row
 * (the window's length); figures without one (manifests written before the window was recorded)
 * cover the whole step, warm-up included, and are kept so, never reinterpreted.
 */
final class StepResourceRows {
  private StepResourceRows() {}

  /**
   * @param seen the task names that already have their figures (a step name twice in a manifest:
   *     the first stands); the names this entry fills are added
   */
  static List<ParsedMetric> rows(StepResources step, Set<String> seen) {
    List<ParsedMetric> rows = new ArrayList<>();
    if (step.step() == null) {
      return rows;
    }
    List<String> names = step.taskNames().isEmpty() ? List.of(step.step()) : step.taskNames();
    for (String name : names) {
      if (!seen.add(name)) {
        continue;
      }
      int figures = 0;
      for (ResourceMetric m : ResourceMetric.values()) {
        OptionalDouble value = m.perOperation(step);
        if (value.isPresent() && Double.isFinite(value.getAsDouble())) {
          rows.add(ParsedMetric.whole(name, m.metric(), value.getAsDouble(), m.unit()));
          figures++;
        }
      }
      OptionalDouble windowS = step.measuredWindowS();
      if (figures > 0 && windowS.isPresent()) {
        rows.add(ParsedMetric.whole(name, StepResources.WINDOW_METRIC, windowS.getAsDouble(), "s"));
      }
    }
    return rows;
  }
}
