package dev.benchlake.ingest.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.format.HostileFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code benchlake ingest} as a user runs it, on real outputs mutated by {@code HostileBytes}
 * (seeded, {@value #CASES} cases), each into a warehouse that already holds a run, with
 * {@code --format auto} (the sniffers meet the hostile bytes first) and with the format named:
 *
 * <ul>
 *   <li>exit 0, or exit 2 with exactly one line on stderr; never 1, never a stack trace;
 *   <li>on exit 0, every file's {@code accepted N, rejected M} adds up to its line count;
 *   <li>the warehouse stays readable and the run already there is untouched.
 * </ul>
 */
@org.junit.jupiter.api.Tag("integration")
class HostileIngestCommandTest extends IngestTestSupport {
  static final int CASES = 6;
  private static final long SEED = 20260108L;
  private static final Pattern ACCOUNT = Pattern.compile("(.+): accepted (\\d+), rejected (\\d+)");

  @TempDir
  static Path shared;

  private static Path warehouseDir;
  private static long seedTasks;

  @BeforeAll
  static void seedWarehouse() {
    warehouseDir = shared.resolve("warehouse");
    CommandRun seed = CommandRun.of(new IngestCommand(), "--warehouse", warehouseDir.toString(),
        fixture("pgbench_log.4242").toString(), fixture("pgbench_log.4242.1").toString());
    assertThat(seed.exitCode()).as(seed.stderr()).isZero();
    seedTasks = 20;
  }

  static Stream<Arguments> cases() {
    Random random = new Random(SEED);
    List<Arguments> out = new ArrayList<>();
    for (int i = 0; i < CASES; i++) {
      HostileFiles.Mutated m = HostileFiles.mutateOneFixture(random);
      out.add(Arguments.of(i, m, i % 2 == 0 ? "auto" : m.format()));
    }
    return out.stream();
  }

  @ParameterizedTest(name = "{0}: {1}, --format {2}")
  @MethodSource("cases")
  void hostileFilesAreAddedOrRefusedInOneLineAndTheWarehouseSurvives(int index, HostileFiles.Mutated m, String format)
      throws IOException {
    Path file = tmp.resolve(m.fileName());
    Files.write(file, m.content());
    CommandRun run = CommandRun.of(new IngestCommand(), "--warehouse", warehouseDir.toString(), "--format", format,
        file.toString());
    String context = m + " --format " + format + "\nstderr:\n" + abbreviate(run.stderr());

    assertThat(run.exitCode()).as(context).isIn(ExitCode.OK, ExitCode.BAD_INPUT);
    assertThat(run.stderr()).as(context).doesNotContain("\tat ").doesNotContain("Exception");
    if (run.exitCode() == ExitCode.BAD_INPUT) {
      assertThat(run.stderr().lines().toList()).as(context).singleElement().asString().startsWith("ingest: ");
      assertThat(run.stdout()).isEmpty();
    } else {
      List<String> accounts = run.stderr().lines().filter(l -> ACCOUNT.matcher(l).matches()).toList();
      assertThat(accounts).as(context).isNotEmpty();
      for (String line : accounts) {
        Matcher a = ACCOUNT.matcher(line);
        assertThat(a.matches()).isTrue();
        long lines = HostileFiles.editorLineCount(Files.readAllBytes(Path.of(a.group(1))));
        assertThat(Long.parseLong(a.group(2)) + Long.parseLong(a.group(3))).as("accepted + rejected of " + context)
            .isEqualTo(lines);
      }
    }
    dev.benchlake.warehouse.Warehouse w = dev.benchlake.warehouse.Warehouse.at(spark, warehouseDir.toString());
    assertThat(w.runs().where("source_format = 'pgbench-log' and tasks_accepted = " + seedTasks).count())
        .as("the run ingested first is still there, whole").isGreaterThanOrEqualTo(1);
    assertThat(w.tasks().count()).as("the warehouse reads").isGreaterThanOrEqualTo(seedTasks);
  }

  /** Found by the cases above: a thread count with more text after it (a future sysbench) was exit 1. */
  @org.junit.jupiter.api.Test
  void aThreadCountThatIsNotANumberStaysAFactAndLeavesTheColumnEmpty() throws IOException {
    String text = Files.readString(fixture("oltp_read_write.txt"), java.nio.charset.StandardCharsets.UTF_8)
        .replace("Number of threads: 2", "Number of threads: 2 future 83441");
    Path file = Files.writeString(tmp.resolve("oltp_future.txt"), text, java.nio.charset.StandardCharsets.UTF_8);
    Path own = tmp.resolve("own-warehouse");
    CommandRun run = CommandRun.of(new IngestCommand(), "--warehouse", own.toString(), file.toString());
    assertThat(run.exitCode()).as(run.stderr()).isZero();
    org.apache.spark.sql.Row row = dev.benchlake.warehouse.Warehouse.at(spark, own.toString()).runs().first();
    assertThat(row.isNullAt(row.fieldIndex("clients"))).isTrue();
    assertThat(row.<String>getAs("metadata_json")).contains("\"number_of_threads\":\"2 future 83441\"");
  }

  private static String abbreviate(String text) {
    return text.length() <= 2000 ? text : text.substring(0, 2000) + "…";
  }
}
