package dev.benchlake.app.smallreads;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compare or a trend reads the runs table's files once (issue 46): compare selects its two sides
 * from the rows and builds its report's scope from the same rows, as trend does for its versions,
 * through the one {@link KernelWarehouse} it is given. Shown without Spark on a copy of the frozen 0.3.0
 * warehouse: once its runs are read, their files deleted, the same warehouse still gives the same
 * rows and still selects a compare's runs (a second read would find the files gone).
 */
class RunsReadOnceTest {
  @Test
  void theRunsTableIsReadOncePerCommand(@TempDir Path tmp) throws IOException {
    Path wh = CompatFixtures.copy("0.3.0", "warehouse", tmp.resolve("wh"));
    KernelWarehouse tables = KernelWarehouse.at(wh.toString());
    List<String> ids = tables.runs().stream().map(r -> r.<String>getAs(WarehouseSchema.RUN_ID)).toList();
    assertThat(ids).isNotEmpty();

    List<Path> files;
    try (Stream<Path> listed = Files.list(wh.resolve("runs"))) {
      files = listed.filter(f -> f.getFileName().toString().endsWith(".parquet")).toList();
    }
    assertThat(files).as("the runs table's data files").isNotEmpty();
    for (Path file : files) {
      Files.delete(file);
    }

    assertThat(tables.runs().stream().map(r -> r.<String>getAs(WarehouseSchema.RUN_ID)).toList()).isEqualTo(ids);
    Compare.checkSelection(tables, CompareRequest.of("db_major=14", "db_major=17"));
    List<Row> again = tables.runs();
    assertThat(again).as("the same rows, not a copy per call").isSameAs(tables.runs());
  }
}
