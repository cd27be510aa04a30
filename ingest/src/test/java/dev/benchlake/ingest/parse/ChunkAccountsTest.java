package dev.benchlake.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.warehouse.RejectType;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

class ChunkAccountsTest {
  private static final ChunkAccounts.ChunkKey A = new ChunkAccounts.ChunkKey(0, 0, 0);
  private static final ChunkAccounts.ChunkKey B = new ChunkAccounts.ChunkKey(0, 0, 4096);
  private static final ChunkAccounts.ChunkKey C = new ChunkAccounts.ChunkKey(1, 0, 0);

  private static Row reject(long line) {
    return ParsedRows.reject(0, 0, line, "bad line " + line, RejectType.SYNTAX, null, "not a line");
  }

  @Test
  void chunksThatFitTheBudgetKeepTheirRowsAndTheRestAreMarkedWhole() {
    List<Row> a = List.of(reject(1), reject(2));
    long size = ChunkAccounts.estimate(a.get(0)) + ChunkAccounts.estimate(a.get(1));
    ChunkAccounts driver = new ChunkAccounts(size + size / 2);
    ChunkAccounts taskA = driver.copy();
    ChunkAccounts taskB = driver.copy();
    ChunkAccounts taskC = driver.copy();
    taskA.add(new ChunkAccounts.Chunk(A, a, size));
    taskB.add(new ChunkAccounts.Chunk(B, List.of(reject(3), reject(4)), size));
    taskC.add(new ChunkAccounts.Chunk(C, null, 0));
    driver.merge(taskA);
    driver.merge(taskB);
    driver.merge(taskC);

    ChunkAccounts.Gathered gathered = driver.value();
    assertThat(gathered.rows()).isEqualTo(a);
    assertThat(gathered.overflowed()).as("B would pass the total, C passed its own").containsExactly(B, C);
  }

  @Test
  void aCopyIsIndependentAndResetEmpties() {
    ChunkAccounts accounts = new ChunkAccounts(1 << 20);
    accounts.add(new ChunkAccounts.Chunk(A, List.of(reject(1)), 100));
    ChunkAccounts copy = accounts.copy();
    accounts.reset();
    assertThat(accounts.isZero()).isTrue();
    assertThat(copy.value().rows()).hasSize(1);
  }

  @Test
  void theEstimateGrowsWithTheText() {
    assertThat(ChunkAccounts.estimate(reject(1)))
        .isLessThan(ChunkAccounts.estimate(ParsedRows.reject(0, 0, 1, "x".repeat(1000), RejectType.SYNTAX, null, "r")));
  }
}
