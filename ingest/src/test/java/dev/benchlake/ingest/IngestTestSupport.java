package dev.benchlake.ingest;

import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.io.TempDir;

/** A fresh warehouse per test and helpers to run ingests in-process. */
public abstract class IngestTestSupport extends SparkTestBase {
  @TempDir
  protected Path tmp;

  protected final List<String> messages = Collections.synchronizedList(new ArrayList<>());

  /** A committed real-tool fixture (see the README beside them). */
  public static Path fixture(String name) {
    try {
      return Path.of(IngestTestSupport.class.getResource("/dev/benchlake/ingest/fixtures/" + name).toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  protected Warehouse warehouse() {
    return Warehouse.at(spark, tmp.resolve("warehouse").toString());
  }

  protected IngestResult ingest(IngestRequest request) throws IOException {
    return Ingest.run(spark, warehouse(), request.withMessages(messages::add));
  }

  protected List<Row> runs() {
    return warehouse().runs().orderBy("run_id").collectAsList();
  }

  protected long count(String table) {
    Warehouse w = warehouse();
    return switch (table) {
      case "tasks" -> w.tasks().count();
      case "step_metrics" -> w.stepMetrics().count();
      case "rejects" -> w.rejects().count();
      default -> w.runs().count();
    };
  }
}
