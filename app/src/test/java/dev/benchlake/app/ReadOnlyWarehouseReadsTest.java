package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A warehouse on a read-only file system is read by the commands that read with Spark as by the
 * Kernel readers ({@link DamagedWarehouseTest#aReadOnlyWarehouseIsRead}): compare, trend, and runs
 * and export when a {@code --conf} sends them to Spark. None takes a lock or writes a byte there.
 * And a damaged data file that Spark's reads meet is said as the Kernel readers say it.
 */
class ReadOnlyWarehouseReadsTest extends SparkTestBase {
  /** Any Spark setting sends runs and export to Spark; this one changes no result. */
  private static final String[] ON_SPARK = {"--conf", "spark.sql.session.timeZone=UTC"};

  @TempDir
  Path tmp;

  @Test
  void compareTrendAndSparkReadsWorkAndWriteNothing() throws Exception {
    Path wh = CompatFixtures.copy("0.3.0", "warehouse", tmp.resolve("wh"));
    try (HostileFolders.Folder readOnly = HostileFolders.readOnlyView(wh, tmp, "ro")) {
      String dir = readOnly.path().toString();
      Map<Path, String> before = FileTrees.snapshot(readOnly.path());
      List<String[]> commands = List.of(
          new String[] {"compare", "--warehouse", dir, "--baseline", "db_major=14", "--candidate", "db_major=17",
              "--out", tmp.resolve("compare").toString()},
          new String[] {"trend", "--warehouse", dir, "--by", "db_major", "--where", "campaign=compat",
              "--out", tmp.resolve("trend").toString()},
          new String[] {"runs", "--warehouse", dir, ON_SPARK[0], ON_SPARK[1]},
          new String[] {"export", "--warehouse", dir, "--table", "tasks", "--out", tmp.resolve("tasks.csv").toString(),
              ON_SPARK[0], ON_SPARK[1]});
      for (String[] args : commands) {
        CommandRun run = CommandRun.of(Benchlake.commandLine(), args);
        assertThat(run.exitCode()).as(String.join(" ", args) + "\n" + run.stderr()).isZero();
      }
      assertThat(tmp.resolve("compare/report.json")).exists();
      assertThat(tmp.resolve("trend/trend.json")).exists();
      assertThat(Files.readString(tmp.resolve("tasks.csv")).lines().count()).isGreaterThan(1);
      assertThat(FileTrees.snapshot(readOnly.path())).as("nothing written").isEqualTo(before);
    }
  }

  /**
   * Data files overwritten by as many other bytes, met by Spark's reads (issue 44: "Checksum error:
   * file:/…", exit 1): compare reading tasks, export on Spark and ingest reading runs. Each is exit 2
   * with one line naming the file it met and pointing at {@code verify --deep}; nothing written.
   * (The Kernel readers and verify --deep: {@link DamagedWarehouseTest}.)
   */
  @Test
  void aDataFileOverwrittenByAsManyOtherBytesMetBySparkIsOneLineNamingIt() throws Exception {
    Path run = CompatFixtures.copy("0.3.0", "run", tmp.resolve("run"));
    // The table whose files are overwritten, and a command whose Spark job reads them.
    List<List<String>> reads = List.of(
        List.of("tasks", "compare", "--baseline", "db_major=14", "--candidate", "db_major=17", "--out",
            tmp.resolve("compare").toString()),
        List.of("runs", "export", "--table", "runs", "--out", tmp.resolve("runs.csv").toString(), ON_SPARK[0], ON_SPARK[1]),
        List.of("runs", "ingest", "--label", "campaign=new", run.toString()));
    for (List<String> read : reads) {
      Path wh = FileTrees.copy(CompatFixtures.COMPAT.resolve("0.3.0/warehouse"), tmp.resolve("damaged-" + read.get(1)));
      Files.createDirectories(wh.resolve("_locks"));
      try (java.util.stream.Stream<Path> files = Files.list(wh.resolve(read.get(0)))) {
        for (Path file : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
          byte[] other = new byte[(int) Files.size(file)];
          new java.util.Random(44).nextBytes(other);
          Files.write(file, other);
        }
      }
      Map<Path, String> before = FileTrees.snapshot(wh, "_locks");
      List<String> args = new java.util.ArrayList<>(List.of(read.get(1), "--warehouse", wh.toString()));
      args.addAll(read.subList(2, read.size()));
      CommandRun failed = CommandRun.of(Benchlake.commandLine(), args.toArray(String[]::new));
      assertThat(failed.exitCode()).as(args + "\n" + failed.stderr()).isEqualTo(2);
      assertThat(failed.stderr().lines().filter(l -> l.startsWith("benchlake ")).toList()).as(failed.stderr())
          .singleElement().asString()
          .startsWith("benchlake " + read.get(1) + ": " + wh.resolve(read.get(0)).resolve("part-"))
          .contains(".parquet: its bytes do not match its checksum file .part-")
          .endsWith("'benchlake verify --deep --warehouse " + wh + "' reads every data file and lists each damaged one; "
              + "restore them from a backup");
      assertThat(FileTrees.snapshot(wh, "_locks")).as("nothing written").isEqualTo(before);
    }
  }
}
