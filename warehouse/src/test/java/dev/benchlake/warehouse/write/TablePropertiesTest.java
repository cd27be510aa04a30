package dev.benchlake.warehouse.write;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.DeltaLogActions;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rejects table an earlier benchlake created keeps Delta's statistics of every column, a prefix
 * of each rejected line among them. The next write into it (ingest's, through {@link StagedAppend})
 * first sets the table's statistics columns ({@link TableProperties}), in a commit of metadata
 * only, and its own files already follow them; the files written before stay as they are.
 */
class TablePropertiesTest extends SparkTestBase {
  @TempDir
  Path tmp;

  @Test
  void aWriteIntoAnOlderRejectsTableSetsItsStatisticsColumnsAndRewritesNoFile() throws IOException {
    Warehouse warehouse = Warehouse.at(spark, tmp.toString());
    String path = warehouse.path(Table.REJECTS);
    // As an earlier build created it: no table property, statistics of every column.
    spark.createDataFrame(List.of(reject("old-run", "PGPASSWORD=old-canary")), WarehouseSchema.REJECTS).coalesce(1)
        .write().format("delta").save(path);
    Path table = tmp.resolve(Table.REJECTS.dirName());
    List<Path> before = dataFiles(table);
    assertThat(DeltaLogActions.of(table, "{\"add\"")).singleElement().asString().contains("raw_line");

    StagedAppend.write(warehouse, Table.REJECTS, spark.createDataFrame(List.of(reject("new-run", "PGPASSWORD=new-canary")),
        WarehouseSchema.REJECTS).coalesce(1)).commit("table-properties-test", 1, "test");

    List<String> metadata = DeltaLogActions.of(table, "{\"metaData\"");
    assertThat(metadata).hasSize(2);
    assertThat(metadata.get(1)).contains("\"" + WarehouseSchema.STATS_COLUMNS_PROPERTY + "\":\""
        + Table.REJECTS.properties().get(WarehouseSchema.STATS_COLUMNS_PROPERTY) + "\"");
    assertThat(DeltaLogActions.of(table, "{\"remove\"")).as("no file rewritten").isEmpty();
    assertThat(dataFiles(table)).containsAll(before).hasSize(before.size() + 1);
    List<String> adds = DeltaLogActions.of(table, "{\"add\"");
    assertThat(adds).hasSize(2);
    assertThat(adds.get(1)).contains("minValues\\\":{\\\"run_id\\\":", "\\\"line_no\\\":")
        .doesNotContain("raw_line", "reason", "canary");
  }

  private static Row reject(String runId, String rawLine) {
    return RowFactory.create(runId, "/in/pgbench.txt", 1L, rawLine, "not a line of pgbench's output", "unknown_line", null);
  }

  private static List<Path> dataFiles(Path table) throws IOException {
    try (Stream<Path> files = Files.list(table)) {
      return files.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList();
    }
  }
}
