package dev.benchlake.warehouse.spark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ListedParquetTest extends SparkTestBase {
  @TempDir
  Path tmp;

  @Test
  void readsTheCommittedFilesOnlyAndPlansWithoutASparkJob() throws Exception {
    String tasks = tmp.resolve("tasks").toString();
    spark.range(0, 100).selectExpr("cast(id as string) as run_id", "id as latency_ns").write().format("delta").save(tasks);
    spark.range(100, 150).selectExpr("cast(id as string) as run_id", "id as latency_ns").write().format("delta")
        .mode("append").save(tasks);
    // A data file no commit names (as an ingest's staged or refused output): a folder listing would read it.
    Path committed;
    try (Stream<Path> files = Files.list(tmp.resolve("tasks"))) {
      committed = files.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    Files.copy(committed, committed.resolveSibling("part-99999-staged.snappy.parquet"));
    Warehouse warehouse = Warehouse.at(spark, tmp.toString());

    List<Dataset<Row>> listed = new ArrayList<>();
    int jobs = SparkJobs.during(spark, () -> {
      listed.add(ListedParquet.read(spark, KernelWarehouse.of(warehouse), Table.TASKS).orElseThrow());
      listed.get(0).queryExecution().executedPlan();
    });
    assertThat(jobs).as("Spark jobs to plan the read").isZero();
    List<Row> delta = spark.read().format("delta").load(tasks).orderBy("latency_ns").collectAsList();
    assertThat(listed.get(0).orderBy("latency_ns").collectAsList()).hasSize(150).isEqualTo(delta);
    assertThat(listed.get(0).schema()).isEqualTo(spark.read().format("delta").load(tasks).schema());
  }

  @Test
  void leavesToDeltaWhatAPlainParquetReadWouldGetWrong() {
    Warehouse warehouse = Warehouse.at(spark, tmp.toString());
    assertThat(ListedParquet.read(spark, KernelWarehouse.of(warehouse), Table.TASKS)).as("no commit yet").isEmpty();
    // Deletion vectors need reader version 3: a plain read would see deleted rows.
    spark.range(0, 10).selectExpr("cast(id as string) as run_id").write().format("delta")
        .option("delta.enableDeletionVectors", "true").save(tmp.resolve("tasks").toString());
    assertThat(ListedParquet.read(spark, KernelWarehouse.of(warehouse), Table.TASKS)).isEmpty();
    // Partition values live in the log and the folder names, not in the files.
    spark.range(0, 10).selectExpr("cast(id as string) as run_id", "id % 2 as step").write().format("delta")
        .partitionBy("step").save(tmp.resolve("step_metrics").toString());
    assertThat(ListedParquet.read(spark, KernelWarehouse.of(warehouse), Table.STEP_METRICS)).isEmpty();
  }
}
