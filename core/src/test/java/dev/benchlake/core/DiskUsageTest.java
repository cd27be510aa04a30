package dev.benchlake.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a run and a study wrote, said in bytes a person reads (issue 49: disk grew without a word). */
class DiskUsageTest {
  @Test
  void bytesInDecimalUnitsWithThreeFiguresAtMost() {
    assertThat(DiskUsage.human(0)).isEqualTo("0 B");
    assertThat(DiskUsage.human(999)).isEqualTo("999 B");
    assertThat(DiskUsage.human(3_400)).isEqualTo("3.4 kB");
    assertThat(DiskUsage.human(201_349_000)).isEqualTo("201 MB");
    assertThat(DiskUsage.human(12_060_000)).isEqualTo("12.1 MB");
    assertThat(DiskUsage.human(999_600)).isEqualTo("1 MB");
    assertThat(DiskUsage.human(467_000_000_000L)).isEqualTo("467 GB");
  }

  @Test
  void aFolderCountsEveryFileBelowItAndListsItsOwnLargestFirst(@TempDir Path dir) throws Exception {
    Files.write(dir.resolve("manifest.json"), new byte[1_200]);
    Files.write(dir.resolve("tasks.csv"), new byte[25_000]);
    Files.write(Files.createDirectories(dir.resolve("sub")).resolve("x"), new byte[10]);
    assertThat(DiskUsage.bytes(dir)).isEqualTo(26_210);
    assertThat(DiskUsage.files(dir)).isEqualTo("tasks.csv 25 kB, manifest.json 1.2 kB");
  }
}
