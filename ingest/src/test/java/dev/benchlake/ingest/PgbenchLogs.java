package dev.benchlake.ingest;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

/** pgbench {@code -l} logs made up for tests ({@code client_id transaction_no time script_no time_epoch time_us}). */
public final class PgbenchLogs {
  private PgbenchLogs() {}

  /**
   * A log of {@code lines} lines, 8 clients: line {@code i} is {@code "client i aborted"} (a reject)
   * where {@code i % abortEvery == abortEvery / 2}, else a task of latency
   * {@code 300 + (i + salt) % 997} µs. {@code salt} makes the content (and so the run) unique.
   */
  public static Path withAborts(Path file, int lines, int abortEvery, int salt) throws IOException {
    StringBuilder text = new StringBuilder(lines * 32);
    for (int i = 0; i < lines; i++) {
      if (i % abortEvery == abortEvery / 2) {
        text.append("client ").append(i).append(" aborted\n");
        continue;
      }
      text.append(i % 8).append(' ').append(i / 8).append(' ').append(300 + (i + salt) % 997).append(" 0 ")
          .append(1_700_000_000 + i / 5000).append(' ').append(i % 5000 * 199).append('\n');
    }
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }

  /** A log of {@code lines} tasks, 4 clients, with random latencies: its Parquet files compress badly. */
  public static Path random(Path file, int lines, long seed) throws IOException {
    Random random = new Random(seed);
    StringBuilder text = new StringBuilder(lines * 40);
    for (int i = 0; i < lines; i++) {
      text.append(i % 4).append(' ').append(i / 4).append(' ').append(100 + random.nextInt(1_000_000)).append(" 0 ")
          .append(1_700_000_000 + i / 10_000).append(' ').append(random.nextInt(1_000_000)).append('\n');
    }
    return Files.writeString(file, text, StandardCharsets.UTF_8);
  }
}
