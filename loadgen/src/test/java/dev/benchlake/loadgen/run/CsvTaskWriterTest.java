package dev.benchlake.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.GzipTasks;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvTaskWriterTest {
  @TempDir
  Path tmp;

  private static TaskRecord task(int client, long seq) {
    return new TaskRecord("point-select", client, seq, seq * 10, seq * 10 + 1, seq * 10 + 5, 0, false,
        seq % 7 != 0, seq % 7 == 0 ? "57P01" : "", seq % 7 == 0 ? "terminating connection, \"admin\"\nshutdown" : "");
  }

  @Test
  void manyWritersOneLineEachInAValidFile() throws Exception {
    Path file = tmp.resolve("tasks.csv");
    CsvTaskWriter writer = new CsvTaskWriter(file);
    Driver.runWorkers("w", 4, client -> {
      for (long seq = 0; seq < 50_000; seq++) {
        writer.accept(task(client, seq));
      }
    });
    writer.close();
    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertThat(lines.get(0)).isEqualTo(TaskCsv.HEADER);
    assertThat(lines).hasSize(1 + 200_000);
    assertThat(writer.linesWritten()).isEqualTo(200_000);
    assertThat(lines.subList(1, lines.size()).stream().map(TaskCsv::parse).filter(t -> t.clientId() == 2).count())
        .isEqualTo(50_000);
  }

  @Test
  void linesReachTheFileWithinAFlushIntervalWhileTheRunGoesOn() throws Exception {
    Path file = tmp.resolve("tasks.csv");
    CsvTaskWriter writer = new CsvTaskWriter(file);
    for (long seq = 1; seq <= 3; seq++) {
      writer.accept(task(0, seq));
    }
    long deadline = System.nanoTime() + 5_000_000_000L;
    List<String> lines = List.of();
    while (System.nanoTime() < deadline && lines.size() < 4) {
      Thread.sleep(50);
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    }
    assertThat(lines).hasSize(4);
    assertThat(Files.readString(file, StandardCharsets.UTF_8)).endsWith("\n");
    writer.close();
  }

  /**
   * The compact form keeps the raw contract: its last block (from the previous flush on, through
   * the trailer {@code close} adds) cut at every byte reads as a prefix of the lines, each complete
   * line valid and at most the last cut short, with every line flushed before the cut; the file as a
   * crash leaves it (no trailer) holds every line flushed.
   */
  @Test
  void theCompactFileKeepsEveryFlushedLineWhereverItIsCut() throws Exception {
    Path file = tmp.resolve("tasks.csv.gz");
    CsvTaskWriter writer = new CsvTaskWriter(file);
    List<long[]> flushes = new ArrayList<>(); // {the file's bytes, the task lines in them}
    long seq = 0;
    for (int batch = 0; batch < 3; batch++) {
      for (int i = 0; i < 100; i++) {
        writer.accept(task(batch, seq++));
      }
      long deadline = System.nanoTime() + 5_000_000_000L;
      while (taskLines(Files.readAllBytes(file)).size() < seq && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      flushes.add(new long[] {Files.size(file), seq});
    }
    byte[] crashed = Files.readAllBytes(file);
    writer.close();
    byte[] closed = Files.readAllBytes(file);
    List<String> all = taskLines(closed);
    assertThat(all).hasSize((int) seq);
    assertThat(all.stream().map(TaskCsv::parse).filter(t -> !t.ok()).count()).isPositive();
    assertThat(taskLines(crashed)).as("the lines flushed before the crash").isEqualTo(all);
    assertThat(Arrays.copyOf(closed, crashed.length)).as("append-only").isEqualTo(crashed);

    // A cut's text is a prefix of the whole file's, every line of which parses: so each of its
    // complete lines is valid, and only its last may be cut short.
    String whole = text(closed);
    assertThat(whole).startsWith(TaskCsv.HEADER + "\n").endsWith("\n");
    all.forEach(TaskCsv::parse);
    int from = (int) flushes.get(flushes.size() - 2)[0];
    long flushedLines = flushes.get(flushes.size() - 2)[1];
    for (int cut = from; cut <= closed.length; cut++) {
      String text = text(Arrays.copyOf(closed, cut));
      assertThat(whole.startsWith(text)).as("cut at %d reads as a prefix", cut).isTrue();
      long complete = text.chars().filter(c -> c == '\n').count() - 1; // the header's
      assertThat(complete).as("task lines of the cut at %d, after the flush at %d", cut, from)
          .isGreaterThanOrEqualTo(flushedLines);
    }
    assertThat(closed.length - from).as("bytes of the last block, each cut").isGreaterThan(100);
  }

  private static String text(byte[] gzip) throws java.io.IOException {
    try (var in = GzipTasks.inflating(new ByteArrayInputStream(gzip))) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The complete task lines of a tasks.csv.gz as it stands. */
  private static List<String> taskLines(byte[] gzip) throws java.io.IOException {
    String text = text(gzip);
    List<String> lines = text.lines().toList();
    int complete = text.endsWith("\n") ? lines.size() : lines.size() - 1;
    return complete <= 1 ? List.of() : lines.subList(1, complete);
  }
}
