package dev.benchlake.ingest;

import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
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

  /**
   * A committed real-tool fixture (see the README beside them). Read from ingest's test jar (another
   * module's tests in a reactor build, e.g. ingest-faults under `mvn verify`), a file fixture is a copy
   * in a temporary folder: a path into the jar cannot be opened as a file.
   */
  public static Path fixture(String name) {
    String resource = "/dev/benchlake/ingest/fixtures/" + name;
    URL url = IngestTestSupport.class.getResource(resource);
    if (url == null) {
      throw new IllegalArgumentException("no fixture " + resource);
    }
    try {
      if ("file".equals(url.getProtocol())) {
        return Path.of(url.toURI());
      }
      Path dir = Files.createTempDirectory("benchlake-fixture-");
      dir.toFile().deleteOnExit(); // registered first: deleted last, once its file is gone
      Path copy = dir.resolve(Path.of(name).getFileName().toString());
      copy.toFile().deleteOnExit();
      try (InputStream in = url.openStream()) {
        Files.copy(in, copy);
      }
      return copy;
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
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
