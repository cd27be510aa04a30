package dev.benchlake.warehouse.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.spark.SparkJobs;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.List;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WarehouseWriter#hasRowsOf} finds the rows an interrupted ingest left (no runs row: not
 * committed) in any data table, and nothing else, without a Spark job. The run ids are longer than
 * the 32 characters Delta keeps of a string in its file statistics, and not ASCII: statistics that
 * cannot tell two ids apart must leave the file to be read, never skip it.
 */
@org.junit.jupiter.api.Tag("integration")
class HasRowsOfTest extends SparkTestBase {
  private static final String PREFIX = "run-\u00e9\uD83D\uDE00-" + "x".repeat(30);

  @TempDir
  Path tmp;

  @Test
  void findsOrphanedRowsInAnyDataTableWithoutASparkJob() throws Exception {
    Warehouse warehouse = Warehouse.at(spark, tmp.toString());
    WarehouseWriter writer = new WarehouseWriter(warehouse);
    assertThat(writer.hasRowsOf(List.of(PREFIX + "a"))).as("no table yet").isFalse();
    write(warehouse, Table.TASKS, PREFIX + "a", PREFIX + "c");
    write(warehouse, Table.TASKS, "other-run");
    write(warehouse, Table.REJECTS, "rejected-only");

    int jobs = SparkJobs.during(spark, () -> {
      assertThat(writer.hasRowsOf(List.of(PREFIX + "a"))).isTrue();
      assertThat(writer.hasRowsOf(List.of("new-run", PREFIX + "c"))).as("one of several").isTrue();
      assertThat(writer.hasRowsOf(List.of("rejected-only"))).as("a table after tasks").isTrue();
      assertThat(writer.hasRowsOf(List.of(PREFIX + "b"))).as("the same statistics prefix, another id").isFalse();
      assertThat(writer.hasRowsOf(List.of("new-run", "other-run-2"))).isFalse();
      assertThat(writer.hasRowsOf(List.of())).isFalse();
    });
    assertThat(jobs).as("Spark jobs").isZero();
  }

  /**
   * One commit of rows of {@code table} with just a run id and a step, keeping statistics of the run
   * id as every data table does (the table's own statistics columns name columns these rows lack).
   */
  private static void write(Warehouse warehouse, Table table, String... runIds) {
    List<org.apache.spark.sql.Row> rows = java.util.Arrays.stream(runIds).map(id -> RowFactory.create(id, "step")).toList();
    StructType schema = new StructType().add(WarehouseSchema.RUN_ID, DataTypes.StringType, false)
        .add(WarehouseSchema.STEP, DataTypes.StringType, false);
    spark.createDataFrame(rows, schema).coalesce(1).write().format("delta").mode("append")
        .option(WarehouseSchema.STATS_COLUMNS_PROPERTY, WarehouseSchema.RUN_ID).save(warehouse.path(table));
  }
}
