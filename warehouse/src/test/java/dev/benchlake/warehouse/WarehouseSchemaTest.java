package dev.benchlake.warehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The facts other classes take from the schema hold in the schema itself. */
class WarehouseSchemaTest {
  private static final List<String> RUNS_COLUMNS = List.of(WarehouseSchema.RUNS.fieldNames());

  @Test
  void theDimensionColumnsOfRunsAreTheLabelDimensionsInOrder() {
    int first = RUNS_COLUMNS.indexOf(Labels.DIMENSIONS.get(0));
    assertThat(first).isPositive();
    assertThat(RUNS_COLUMNS.subList(first, first + Labels.DIMENSIONS.size())).isEqualTo(Labels.DIMENSIONS);
  }

  @Test
  void theColumnsThatCannotBeSelectedOnAreColumnsOfRuns() {
    assertThat(RUNS_COLUMNS).containsAll(RunSelector.NOT_SELECTABLE);
  }

  /**
   * Delta's statistics of a text column are its first 32 characters in the Delta log, which no
   * scrubber sees: a table with a column of raw text (a rejected line, a task's error) names the
   * columns it keeps statistics of, and none of them is raw text.
   */
  @Test
  void noTableKeepsStatisticsOfRawText() {
    for (WarehouseSchema.Table table : WarehouseSchema.Table.values()) {
      List<String> columns = List.of(table.schema().fieldNames());
      if (columns.stream().noneMatch(WarehouseSchema.RAW_TEXT_COLUMNS::contains)) {
        continue;
      }
      String stats = table.properties().get(WarehouseSchema.STATS_COLUMNS_PROPERTY);
      assertThat(stats).as(table.dirName()).isNotNull();
      assertThat(List.of(stats.split(","))).as(table.dirName()).isSubsetOf(columns)
          .doesNotContainAnyElementsOf(WarehouseSchema.RAW_TEXT_COLUMNS);
    }
    assertThat(WarehouseSchema.RAW_TEXT_COLUMNS).allSatisfy(c -> assertThat(java.util.Arrays.stream(
        WarehouseSchema.Table.values()).anyMatch(t -> List.of(t.schema().fieldNames()).contains(c))).as(c).isTrue());
  }
}
