package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.parse.ParsedRows;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.lifecycle.AfterContainer;
import org.apache.spark.sql.Row;

/**
 * The whole {@link CsvMapping} space on valid data ({@link CsvMappingCase}): planned by
 * {@link CsvFormat} and parsed by the engine's own chunked parsing ({@link EngineParse}), every
 * case gives zero rejects, a verdict for every line, and exactly the tasks (or wide metrics) that
 * the case's reference reader computed from the generated values. {@code CsvMappingIngestTest}
 * takes a handful of these cases through the real ingest (Spark), where the accounting is.
 */
class CsvMappingProperties {
  private static final Path WORK = PropertyWorkDir.create("csv-mapping-");

  @AfterContainer
  static void deleteWorkDir() throws IOException {
    PropertyWorkDir.delete(WORK);
  }

  @Provide
  Arbitrary<CsvMappingCase> cases() {
    return CsvMappingCase.any();
  }

  /** Whole files, and chunks small enough to cut lines (HostileInputProperties cuts finer). */
  @Provide
  Arbitrary<Long> chunkBytes() {
    return Arbitraries.frequencyOf(Tuple.of(1, Arbitraries.just(IngestRequest.DEFAULT_CHUNK_BYTES)),
        Tuple.of(1, Arbitraries.longs().between(64, 1024)));
  }

  @Property(seed = "20260301")
  void validDataUnderEveryMappingGivesNoRejectAndTheReferenceRows(@ForAll("cases") CsvMappingCase c,
      @ForAll("chunkBytes") long chunkBytes) throws IOException {
    Path dir = Files.createTempDirectory(WORK, "case-");
    Path[] files = c.write(dir, "results");
    List<SourcePlan> plans = new CsvFormat().plan(LocalPaths.of(files[0]),
        IngestRequest.of(files[0]).withMapping(files[1]).withStorage(LocalPaths.LOCAL).planContext());
    assertThat(plans).hasSize(1);
    EngineParse.FileVerdicts verdicts = EngineParse.parse(plans.get(0), chunkBytes).get(0);

    assertThat(verdicts.rejects()).as("rejects").extracting(r -> r.getLong(row(ParsedRows.LINE_NO)) + ": "
        + r.getString(EngineParse.REASON)).isEmpty();
    assertThat(verdicts.verdictLines()).as("a verdict per line").isEqualTo(verdicts.lines()).isEqualTo(c.lines().size());
    assertThat(c.wide() ? metrics(verdicts.metrics()) : tasks(verdicts.tasks())).isEqualTo(c.expected());

    // The space is covered: both layouts, header or not, every timestamp form (or none), every optional column.
    Statistics.label("timestamp").collect(c.timestamp());
    Statistics.label("layout, header").collect(c.wide() ? "wide" : "tasks", c.header());
    Statistics.label("timestamp").coverage(check -> CsvMappingCase.TIMESTAMPS.forEach(t -> check.check(t).count(n -> n > 0)));
    Statistics.label("layout, header").coverage(check -> {
      check.check("wide", true).count(n -> n > 0);
      check.check("tasks", true).count(n -> n > 0);
      check.check("tasks", false).count(n -> n > 0);
    });
  }

  private static int task(String field) {
    return ParsedRows.TASK_SCHEMA.fieldIndex(field);
  }

  private static int row(String field) {
    return ParsedRows.SCHEMA.fieldIndex(field);
  }

  /** The engine's task rows ({@link ParsedRows#TASK_SCHEMA}) as {@link CsvMappingCase#task} renders them. */
  static List<String> tasks(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(CsvMappingCase.task(r.getString(task(ParsedRows.RUN_PART)), r.getString(task("step")),
          r.getInt(task("client_id")), r.getLong(task("seq")), (Long) r.get(task(ParsedRows.START_US)),
          (Long) r.get(task(ParsedRows.END_US)), r.getLong(task("latency_ns")), r.getBoolean(task("ok")),
          r.getString(task("error"))));
    }
    return out;
  }

  /** The engine's metric rows ({@link ParsedRows#SCHEMA}) as {@link CsvMappingCase#metric} renders them. */
  static List<String> metrics(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(CsvMappingCase.metric(r.getString(row(ParsedRows.RUN_PART)), r.getString(row("step")),
          r.getString(row("metric")), r.getDouble(row("value")), r.getString(row("unit"))));
    }
    return out;
  }
}
