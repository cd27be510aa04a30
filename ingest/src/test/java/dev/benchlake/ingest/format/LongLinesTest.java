package dev.benchlake.ingest.format;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.format.HostileInputProperties.HostileCase;
import dev.benchlake.ingest.format.HostileInputProperties.Source;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * 10 MB lines in every format, inserted into a real output: a line that looks like the format
 * (the right prefix, then ten million digits, so that patterns built for short numbers meet a
 * long one) and a line of plain garbage, one of them without a final line end and across several
 * 1 MiB chunks. The accounting must still add up (see {@link HostileInputProperties#check}), the
 * reject must stay small, and the parse must end in bounded time: a pattern that backtracks
 * quadratically would take hours on such a line.
 */
@org.junit.jupiter.api.Tag("integration")
class LongLinesTest {
  @TempDir
  Path tmp;

  private static final int MEGABYTES = 10;

  static Stream<Arguments> longLines() {
    String digits = "7".repeat(MEGABYTES << 20);
    String garbage = "x".repeat(MEGABYTES << 20);
    return Stream.of(
        Arguments.of("pgbench", "pgbench15-progress.txt", "progress: 1.0 s, " + digits),
        Arguments.of("pgbench", "pgbench15-progress.txt", "number of transactions actually processed: " + digits),
        Arguments.of("pgbench", "pgbench15-rate-limit.txt", garbage),
        Arguments.of("sysbench", "oltp_read_write.txt", "[ 1s ] thds: 2 tps: " + digits),
        Arguments.of("sysbench", "oltp_read_write.txt", "    " + digits + " |****** 7"),
        Arguments.of("sysbench", "oltp_point_select.txt", garbage),
        Arguments.of("pgbench-log", "pgbench_log.4242", "0 1 " + digits + " 0 1700000000 5"),
        Arguments.of("pgbench-log", "pgbench_log.4242", garbage),
        Arguments.of("pgbench-agg", "pgbench_agg.4242", "1700000000 " + digits + " 1 1 1 1"),
        Arguments.of("pgbench-agg", "pgbench_agg.4242", garbage));
  }

  @ParameterizedTest(name = "{0} {1}: {2}")
  @MethodSource("longLines")
  void aTenMegabyteLineIsRejectedQuicklyAndAccountedFor(String format, String fixture, String longLine) {
    byte[] real = read(fixture);
    List<byte[]> lines = HostileBytes.lines(real);
    int middle = lines.size() / 2;
    ByteArrayOutputStream withLong = new ByteArrayOutputStream();
    lines.subList(0, middle).forEach(withLong::writeBytes);
    withLong.writeBytes((longLine + "\n").getBytes(StandardCharsets.UTF_8));
    lines.subList(middle, lines.size()).forEach(withLong::writeBytes);
    withLong.writeBytes(longLine.getBytes(StandardCharsets.UTF_8)); // and once more, with no line end
    Map<String, byte[]> files = new TreeMap<>(Map.of(fixture, withLong.toByteArray()));
    HostileCase c = new HostileCase(new Source(format, files, fixture, false, null), List.of(), 0, 1 << 20);
    assertTimeoutPreemptively(Duration.ofSeconds(60), () -> HostileInputProperties.check(c, tmp),
        () -> "a " + MEGABYTES + " MB line in " + fixture + " (" + format + ") took over 60 s");
  }

  private static byte[] read(String fixture) {
    try {
      return Files.readAllBytes(IngestTestSupport.fixture(fixture));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
