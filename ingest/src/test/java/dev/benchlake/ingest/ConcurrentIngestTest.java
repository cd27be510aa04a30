package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Ingests running at the same time into one warehouse, including two of the very same files. */
@org.junit.jupiter.api.Tag("integration")
class ConcurrentIngestTest extends IngestTestSupport {
  @Test
  void concurrentIngestsEachLandExactlyOnce() throws Exception {
    Path a = fixture("pgbench_log.4242");
    Path b = fixture("pgbench_log.4242.1");
    List<Callable<IngestResult>> jobs = List.of(
        () -> ingest(IngestRequest.of(a, b)),
        () -> ingest(IngestRequest.of(a, b)),
        () -> ingest(IngestRequest.of(fixture("oltp_point_select.txt"))),
        () -> ingest(IngestRequest.of(fixture("pgbench15-failures.txt"))),
        () -> ingest(IngestRequest.of(fixture("pgbench_retries.4242"))));
    ExecutorService pool = Executors.newFixedThreadPool(jobs.size());
    List<IngestResult> results = new ArrayList<>();
    try {
      List<Future<IngestResult>> futures = new ArrayList<>();
      for (Callable<IngestResult> job : jobs) {
        futures.add(pool.submit(job));
      }
      for (Future<IngestResult> future : futures) {
        results.add(future.get());
      }
    } finally {
      pool.shutdownNow();
    }
    // The two ingests of the same files: one added it, the other found it there.
    assertThat(List.of(results.get(0).changedWarehouse(), results.get(1).changedWarehouse()))
        .containsExactlyInAnyOrder(true, false);
    assertThat(count("runs")).isEqualTo(4);
    assertThat(warehouse().runs().select("run_id").distinct().count()).isEqualTo(4);
    assertThat(count("tasks")).isEqualTo(20 + 40);
    assertThat(warehouse().tasks().select("run_id", "client_id", "seq").distinct().count()).isEqualTo(60);
  }
}
