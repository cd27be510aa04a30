package dev.benchlake.warehouse.kernel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link WarehouseVerify} on a table with a Delta checkpoint (Delta writes one every 10 commits:
 * a warehouse of many ingests has them, the frozen fixtures have none): sound as written and after
 * Delta's log clean-up removed the commits before it; a checkpoint cut short and a
 * {@code _last_checkpoint} naming one the log lacks are each a problem naming the file.
 */
class WarehouseVerifyCheckpointTest extends SparkTestBase {
  @TempDir
  static Path built;

  @TempDir
  Path tmp;

  private Path wh;
  private Path log;

  /**
   * A warehouse whose tasks table has a checkpoint: of version 2, its checkpoint interval set to 2
   * (Delta's default is 10) so that three commits make one.
   */
  @BeforeAll
  static void tableWithACheckpoint() {
    String table = built.resolve("wh/tasks").toString();
    spark.range(0, 3).toDF("x").write().format("delta").save(table);
    spark.sql("ALTER TABLE delta.`" + table + "` SET TBLPROPERTIES ('delta.checkpointInterval' = '2')");
    spark.range(3, 6).toDF("x").write().format("delta").mode("append").save(table);
  }

  @BeforeEach
  void copy() throws Exception {
    wh = FileTrees.copy(built.resolve("wh"), tmp.resolve("wh"));
    log = wh.resolve("tasks/_delta_log");
    assertThat(log.resolve("00000000000000000002.checkpoint.parquet")).exists();
  }

  private WarehouseVerify.Report verify() throws Exception {
    return WarehouseVerify.run(wh.toString(), spark.sparkContext().hadoopConfiguration());
  }

  @Test
  void aTableWithACheckpointIsSoundAlsoWithoutTheCommitsBeforeIt() throws Exception {
    assertThat(verify().problems()).isEmpty();
    assertThat(verify().tables()).singleElement().satisfies(t -> {
      assertThat(t.version()).isEqualTo(2);
      // Two appends, no file ever removed: every data file in the folder is the table's.
      try (java.util.stream.Stream<Path> files = Files.list(wh.resolve("tasks"))) {
        assertThat(t.dataFiles()).isEqualTo(files.filter(f -> f.getFileName().toString().startsWith("part-")).count());
      }
    });
    for (int version = 0; version < 2; version++) {
      Files.delete(log.resolve(String.format(java.util.Locale.ROOT, "%020d.json", version)));
    }
    assertThat(verify().problems()).as("Delta's log clean-up removes commits a checkpoint covers").isEmpty();
  }

  @Test
  void aCheckpointCutShortIsNamed() throws Exception {
    Path checkpoint = log.resolve("00000000000000000002.checkpoint.parquet");
    Files.write(checkpoint, Arrays.copyOf(Files.readAllBytes(checkpoint), (int) Files.size(checkpoint) / 2));
    Files.delete(log.resolve(".00000000000000000002.checkpoint.parquet.crc"));
    assertThat(verify().problems()).extracting(WarehouseProblem::file).contains(checkpoint.toString());
    assertThat(verify().problems()).filteredOn(p -> p.file().equals(checkpoint.toString())).singleElement()
        .extracting(WarehouseProblem::cause).asString().startsWith("not a whole Parquet file");
  }

  @Test
  void aLastCheckpointNamingNoCheckpointIsNamed() throws Exception {
    Path last = log.resolve("_last_checkpoint");
    Files.writeString(last, "{\"version\":20,\"size\":13}");
    Files.deleteIfExists(log.resolve("._last_checkpoint.crc"));
    assertThat(verify().problems()).contains(new WarehouseProblem(last.toString(),
        "names the checkpoint of version 20, which the log does not have"));
  }
}
