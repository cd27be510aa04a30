package dev.benchlake.ingest.format;

import dev.benchlake.ingest.IngestTestSupport;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** {@link HostileBytes} for tests outside this package: one real single-file output, mutated. */
public final class HostileFiles {
  /** Single-file fixtures and their formats. */
  private static final List<String[]> FIXTURES = List.of(
      new String[] {"pgbench-log", "pgbench_retries.4242"},
      new String[] {"pgbench-log", "pgbench_skipped.4242"},
      new String[] {"pgbench-agg", "pgbench_agg.4242"},
      new String[] {"pgbench", "pgbench15-progress.txt"},
      new String[] {"pgbench", "pgbench15-rate-limit.txt"},
      new String[] {"pgbench", "pgbench15-failures.txt"},
      new String[] {"sysbench", "oltp_point_select.txt"},
      new String[] {"sysbench", "oltp_read_write.txt"});

  private HostileFiles() {}

  /** A mutated file: its format before the damage, its name, its bytes and what was done to it. */
  public record Mutated(String format, String fileName, byte[] content, String mutations) {
    @Override
    public String toString() {
      return fileName + " " + mutations;
    }
  }

  /** One fixture, drawn by {@code random}, after one to three mutations drawn by it too. */
  public static Mutated mutateOneFixture(Random random) {
    String[] fixture = FIXTURES.get(random.nextInt(FIXTURES.size()));
    byte[] content;
    try {
      content = Files.readAllBytes(IngestTestSupport.fixture(fixture[1]));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<HostileBytes> applied = new ArrayList<>();
    for (int k = 0, n = 1 + random.nextInt(3); k < n; k++) {
      HostileBytes mutation = HostileBytes.values()[random.nextInt(HostileBytes.values().length)];
      content = mutation.apply(content, random);
      applied.add(mutation);
    }
    return new Mutated(fixture[0], fixture[1], content, applied.toString());
  }

  public static long editorLineCount(byte[] content) {
    return HostileBytes.editorLineCount(content);
  }
}
