package dev.benchlake.core.raw;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** Per-operation figures from a step's counters: sums of differences over tasks, absent rather than zero. */
class ResourceMetricTest {
  private static StepResources step(long tasks, ResourceCounter... counters) {
    return new StepResources("s", List.of("s"), tasks, List.of(counters),
        new TreeMap<>(Map.of(ResourceMetric.Counter.SERVER_CS_INVOLUNTARY, "a server by URL")));
  }

  @Test
  void aFigureIsItsCountersDifferencesSummedOverTheTasksInItsUnit() {
    StepResources s = step(4_000,
        new ResourceCounter(ResourceMetric.Counter.SERVER_CPU_USER_NS, 10_000_000_000L, 12_000_000_000L, "ns"),
        new ResourceCounter(ResourceMetric.Counter.SERVER_CPU_SYSTEM_NS, 5_000_000_000L, 5_400_000_000L, "ns"),
        new ResourceCounter(ResourceMetric.Counter.BLKS_READ, 7, 7, "blocks"));
    // (2.0 s + 0.4 s) / 4,000 tasks = 600 us a task.
    assertThat(ResourceMetric.SERVER_CPU_US_PER_OP.perOperation(s)).hasValue(600.0);
    assertThat(ResourceMetric.SERVER_CPU_US_PER_OP.unit()).isEqualTo("us");
    assertThat(ResourceMetric.BLKS_READ_PER_OP.perOperation(s)).as("measured as none: zero").hasValue(0.0);
  }

  @Test
  void aFigureWithACounterNotMeasuredOrNoTasksIsAbsentNotZero() {
    StepResources s = step(100,
        new ResourceCounter(ResourceMetric.Counter.SERVER_CS_VOLUNTARY, 0, 500, "count"));
    assertThat(ResourceMetric.SERVER_CS_PER_OP.perOperation(s)).as("involuntary not measured").isEmpty();
    assertThat(ResourceMetric.WAL_BYTES_PER_OP.perOperation(s)).as("not read at all").isEmpty();
    assertThat(ResourceMetric.BLKS_READ_PER_OP.perOperation(step(0,
        new ResourceCounter(ResourceMetric.Counter.BLKS_READ, 0, 9, "blocks")))).as("no task completed").isEmpty();
  }

  @Test
  void theMetricNamesAreUniqueAndSayPerOperation() {
    assertThat(java.util.Arrays.stream(ResourceMetric.values()).map(ResourceMetric::metric))
        .doesNotHaveDuplicates().allMatch(m -> m.endsWith("_per_op"));
  }
}
