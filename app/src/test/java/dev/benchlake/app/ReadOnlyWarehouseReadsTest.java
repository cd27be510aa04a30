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
}
