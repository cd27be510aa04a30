package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.Compare;
import dev.benchlake.analysis.compare.CompareRequest;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.analysis.testing.WarehouseFixture.Run;
import dev.benchlake.analysis.testing.WarehouseFixture.Task;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A report's provenance names the runs table's version its command read, not the one an ingest
 * committed after: compare and trend read through the one {@link KernelWarehouse} given them, and
 * the provenance is made from it. The ingest lands after the command's read and before the
 * provenance is made, as an ingest running next to a compare would.
 */
@org.junit.jupiter.api.Tag("integration")
class ProvenanceVersionTest extends SparkTestBase {
  @TempDir
  Path dir;

  @Test
  void anIngestAfterTheReadDoesNotChangeTheVersionNamed() {
    Warehouse warehouse = WarehouseFixture.write(spark, dir.resolve("warehouse").toString(),
        List.of(run("a-1", "a", 11), run("a-2", "a", 11), run("b-1", "b", 12), run("b-2", "b", 12)),
        tasks("a-1", "a-2", "b-1", "b-2"), List.of());

    long read = KernelWarehouse.of(warehouse).version();
    // Nothing read through it yet: its snapshot of runs is taken by the compare.
    KernelWarehouse compared = KernelWarehouse.of(warehouse);
    ComparisonReport report = Compare.run(warehouse, compared, CompareRequest.of("os=a", "os=b"),
        TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
    WarehouseFixture.append(warehouse, "later-a", List.of(run("a-3", "a", 11)), tasks("a-3"), List.of());
    assertThat(KernelWarehouse.of(warehouse).version()).as("the ingest committed").isGreaterThan(read);
    assertThat(report.selections().baseline().runs()).as("what the compare read").containsExactly("a-1", "a-2");
    assertThat(Provenance.of(compared, "compare", List.of()).deltaVersion()).isEqualTo(read);

    long trendRead = KernelWarehouse.of(warehouse).version();
    KernelWarehouse trended = KernelWarehouse.of(warehouse);
    TrendReport trend = Trend.run(warehouse, trended, TrendRequest.of("db_major", "11", "p50_s"),
        TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD);
    WarehouseFixture.append(warehouse, "later-b", List.of(run("b-3", "b", 12)), tasks("b-3"), List.of());
    assertThat(trend.runs().get("12")).as("what the trend read").containsExactly("b-1", "b-2");
    assertThat(Provenance.of(trended, "trend", List.of()).deltaVersion()).isEqualTo(trendRead)
        .isLessThan(KernelWarehouse.of(warehouse).version());
  }

  private static Run run(String id, String os, int major) {
    return new Run(id, Map.of("os", os, "db_major", Integer.toString(major)));
  }

  private static List<Task> tasks(String... runIds) {
    List<Task> tasks = new ArrayList<>();
    for (String id : runIds) {
      for (int i = 0; i < 20; i++) {
        tasks.add(Task.ok(id, "select", 1_000_000L + 10_000L * i + (id.startsWith("b") ? 200_000L : 0)));
      }
    }
    return tasks;
  }
}
