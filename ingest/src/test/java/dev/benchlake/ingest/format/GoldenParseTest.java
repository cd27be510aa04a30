package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.Golden;
import dev.benchlake.ingest.IngestRequest;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Seals what each parser makes of real tool output (the fixtures in
 * src/test/resources/dev/benchlake/ingest/fixtures, made by the real pgbench and sysbench): every
 * verdict of every line, rendered one per line, must equal the reviewed golden file. Run with
 * {@code -Dbenchlake.golden.update=true} to rewrite the golden files after a deliberate change.
 */
class GoldenParseTest {
  private static final Path FIXTURES = fixtures();

  @ParameterizedTest(name = "{0}: {1}")
  @CsvSource({
      "pgbench,     pgbench15-progress.txt",
      "pgbench,     pgbench15-rate-limit.txt",
      "pgbench,     pgbench15-failures.txt",
      "pgbench-log, pgbench_log.4242 pgbench_log.4242.1",
      "pgbench-log, pgbench_retries.4242",
      "pgbench-log, pgbench_skipped.4242",
      "pgbench-agg, pgbench_agg.4242 pgbench_agg.4242.1",
      "sysbench,    oltp_read_write.txt",
      "sysbench,    oltp_point_select.txt",
  })
  void parsesRealOutputExactlyAsSealed(String format, String files) throws IOException {
    Path[] paths = java.util.Arrays.stream(files.split(" ")).map(FIXTURES::resolve).toArray(Path[]::new);
    IngestRequest request = IngestRequest.of(paths).withLabels(Map.of());
    String rendered = Parsing.render(Formats.named(format), request, paths);
    String name = paths[0].getFileName().toString().replace('.', '_') + ".golden";
    Golden.checkOnly(GoldenParseTest.class, "/dev/benchlake/ingest/fixtures/golden/" + name, rendered);
    assertThat(rendered).doesNotContain(" reject ");
  }

  static Path fixtures() {
    try {
      return Path.of(GoldenParseTest.class.getResource("/dev/benchlake/ingest/fixtures/README.md").toURI()).getParent();
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}
