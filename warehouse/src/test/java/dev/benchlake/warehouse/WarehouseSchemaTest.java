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
}
