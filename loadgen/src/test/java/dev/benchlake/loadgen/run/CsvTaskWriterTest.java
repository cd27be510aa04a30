package dev.benchlake.loadgen.run;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
}
