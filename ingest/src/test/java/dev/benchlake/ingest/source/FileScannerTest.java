package dev.benchlake.ingest.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileScannerTest {
  @TempDir
  Path tmp;

  /** Reading every chunk gives back every line exactly once, numbered as an editor numbers them. */
  @ParameterizedTest(name = "chunk {0} bytes")
  @ValueSource(ints = {1, 2, 3, 7, 64, 1000, 1 << 20})
  void chunksCoverEveryLineOnceWithExactLineNumbers(int chunkBytes) throws Exception {
    Random random = new Random(chunkBytes);
    StringBuilder text = new StringBuilder();
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String line = "l" + i + "x".repeat(random.nextInt(40)) + (i % 7 == 0 ? "é" : "");
      expected.add(line);
      text.append(line).append(i % 5 == 0 ? "\r\n" : "\n");
      if (i % 50 == 0) {
        expected.add("");
        text.append('\n');
      }
    }
    expected.add("last line without newline");
    text.append("last line without newline");
    Path file = tmp.resolve("f.txt");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    assertChunksGiveBack(file, chunkBytes, expected);
  }

  /** Chunk ends that fall inside, at the end of and just after the scanner's 1 MiB reads. */
  @ParameterizedTest(name = "chunk {0} bytes")
  @ValueSource(ints = {999_983, 1 << 20, (1 << 20) + 1})
  void chunkEndsAcrossReadBuffersKeepExactLineNumbers(int chunkBytes) throws Exception {
    List<String> expected = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (int i = 0; text.length() < 3_300_000; i++) {
      String line = i + "y".repeat(i % 97);
      expected.add(line);
      text.append(line).append('\n');
    }
    Path file = tmp.resolve("big.txt");
    Files.writeString(file, text, StandardCharsets.UTF_8);
    assertChunksGiveBack(file, chunkBytes, expected);
  }

  private static void assertChunksGiveBack(Path file, long chunkBytes, List<String> expected) throws Exception {
    ScannedFile scanned = FileScanner.scan(file, chunkBytes, true);
    assertThat(scanned.lines()).isEqualTo(expected.size());
    assertThat(scanned.sha256()).isEqualTo(HexFormat.of().formatHex(
        MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(file))));
    List<String> read = new ArrayList<>();
    for (ScannedFile.Chunk chunk : scanned.chunks()) {
      try (ChunkLineReader reader = new ChunkLineReader(file, chunk.start(), chunk.end())) {
        long lineNo = chunk.firstLineNo();
        String line;
        while ((line = reader.readLine()) != null) {
          assertThat(lineNo).as("line number").isEqualTo(read.size() + 1);
          read.add(line);
          lineNo++;
        }
      }
    }
    assertThat(read).containsExactlyElementsOf(expected);
  }

  @Test
  void countsLinesLikeAnEditor() throws IOException {
    assertThat(lines("")).isZero();
    assertThat(lines("\n")).isEqualTo(1);
    assertThat(lines("a")).isEqualTo(1);
    assertThat(lines("a\nb")).isEqualTo(2);
    assertThat(lines("a\nb\n")).isEqualTo(2);
    assertThat(lines("a\r\n\r\n")).isEqualTo(2);
  }

  private long lines(String text) throws IOException {
    Path file = Files.writeString(tmp.resolve("c" + text.hashCode()), text, StandardCharsets.UTF_8);
    return FileScanner.scan(file, 2, true).lines();
  }
}
