package dev.benchlake.warehouse.export;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** Which reader export takes: Kernel for the small tables always, for tasks only while that table is small. */
class ExportTableTest {
  @Test
  void tasksAreReadWithKernelOnlyUpToTheirByteLimitAndWhenTheirSizeIsKnown() {
    assertThat(ExportTable.TASKS.smallEnoughForKernel(OptionalLong.of(ExportTable.KERNEL_TASKS_BYTES))).isTrue();
    assertThat(ExportTable.TASKS.smallEnoughForKernel(OptionalLong.of(ExportTable.KERNEL_TASKS_BYTES + 1))).isFalse();
    assertThat(ExportTable.TASKS.smallEnoughForKernel(OptionalLong.empty())).as("size unknown: Spark").isFalse();
  }

  @Test
  void theOtherTablesAreAlwaysReadWithKernel() {
    for (ExportTable table : ExportTable.values()) {
      if (table != ExportTable.TASKS) {
        assertThat(table.smallEnoughForKernel(OptionalLong.empty())).as(table.toString()).isTrue();
        assertThat(table.smallEnoughForKernel(OptionalLong.of(Long.MAX_VALUE))).as(table.toString()).isTrue();
      }
    }
  }
}
