package dev.benchlake.app.endtoend;

import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.analysis.trend.Trend;
import dev.benchlake.analysis.trend.StepGroups;
import dev.benchlake.analysis.trend.TrendReport;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real sysbench 1.0.20 output (ingest's fixtures) through {@link Ingest#run} into a trend: the
 * metric names and units the parser writes are the ones the trend reads.
 */
@org.junit.jupiter.api.Tag("integration")
class SysbenchTrendTest extends SparkTestBase {
  @TempDir
  Path dir;

  @Test
  void sysbenchSummariesGiveQpsTpsAndLatency() throws Exception {
    Warehouse warehouse = Warehouse.at(spark, dir.resolve("warehouse").toString());
    for (String major : new String[] {"14", "15"}) {
      Path folder = Files.createDirectories(dir.resolve("pg" + major));
      for (String name : new String[] {"oltp_point_select.txt", "oltp_read_write.txt"}) {
        String text = fixture(name);
        // The same measurements for both majors; a trailing blank line (metadata to the parser) makes
        // the copy a different source, so that ingest does not recognise it as already ingested.
        Files.writeString(folder.resolve(name), major.equals("14") ? text : text + "\n", StandardCharsets.UTF_8);
      }
      Ingest.run(spark, warehouse, IngestRequest.of(folder).withFormat("sysbench").withLabels(Map.of("db_major", major)));
    }
    TrendReport qps = Trend.run(warehouse, TrendRequest.of("db_major", "14", "qps"));
    assertThat(qps.versions()).containsExactly("14", "15");
    StepTrend point = step(qps, "oltp_point_select");
    assertThat(point.group()).isEqualTo(StepGroups.POINT);
    assertThat(point.at("14").value()).isEqualTo(49507.72);
    assertThat(point.at("15").relative()).isEqualTo(1.0);
    assertThat(step(qps, "oltp_read_write").group()).isEqualTo(StepGroups.OTHER);
    assertThat(qps.messages()).as("each file is a run").contains(
        "db_major 14: oltp_point_select, oltp_read_write have one run each: no interval there, so its calls are inconclusive.");

    // Real sysbench output carries no table health: not recorded, never clean.
    assertThat(step(qps, "oltp_point_select").at("15").confounders()).singleElement().satisfies(c -> {
      assertThat(c.kind()).isEqualTo("not_recorded");
      assertThat(c.detail()).as("the runs that have the step: one a version")
          .isEqualTo("table health not recorded for the run of 14 and the run of 15.");
    });
    String md = dev.benchlake.analysis.trend.TrendMarkdown.write(qps);
    assertThat(md).contains("Table health not recorded for `oltp_point_select`, `oltp_read_write`")
        .doesNotContain("confounded").doesNotContain("Table health recorded in every run");

    TrendReport tps = Trend.run(warehouse, TrendRequest.of("db_major", "14", "tps"));
    assertThat(step(tps, "oltp_point_select").at("14").value()).isEqualTo(49507.72);
    TrendReport p99 = Trend.run(warehouse, TrendRequest.of("db_major", "14", "p99_s"));
    assertThat(step(p99, "oltp_point_select").at("14").value()).isCloseTo(0.00009, within(1e-12));
    TrendReport mean = Trend.run(warehouse, TrendRequest.of("db_major", "14", "mean_s"));
    assertThat(step(mean, "oltp_point_select").at("15").value()).isCloseTo(0.00004, within(1e-12));
  }

  private static StepTrend step(TrendReport report, String name) {
    return report.steps().stream().filter(s -> s.step().equals(name)).findFirst().orElseThrow();
  }

  /** The fixture's text: a class path resource, which is inside ingest's test jar in a reactor build. */
  private static String fixture(String name) throws Exception {
    try (InputStream in = SysbenchTrendTest.class.getResourceAsStream("/dev/benchlake/ingest/fixtures/" + name)) {
      assertThat(in).as("ingest fixture " + name).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
