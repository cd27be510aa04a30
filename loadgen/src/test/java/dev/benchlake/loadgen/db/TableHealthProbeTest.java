package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.raw.TableHealth;
import dev.benchlake.loadgen.db.TableHealthProbe.Snapshot;
import dev.benchlake.loadgen.db.TableHealthProbe.TableRow;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The pure part of the probe: sums over tables, latest timestamps, tables processed in between. */
class TableHealthProbeTest {
  private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
  private static final Instant T1 = Instant.parse("2026-12-01T10:00:30Z");

  @Test
  void sumsCountsKeepsTheLatestTimestampsAndCountsTheTablesProcessedDuringTheStep() {
    Snapshot before = new Snapshot(T0, List.of(
        new TableRow("sbtest1", 1_000, 0, 2, 3, T0.minusSeconds(60), null),
        new TableRow("sbtest2", 1_000, 10, 0, 1, null, T0.minusSeconds(5))), 7L, 100L);
    Snapshot after = new Snapshot(T1, List.of(
        new TableRow("sbtest1", 1_000, 400, 3, 3, T1.minusSeconds(10), null),
        new TableRow("sbtest2", 990, 500, 0, 2, null, T1.minusSeconds(1)),
        new TableRow("sbtest3", 5, 0, 9, 9, null, null)), 8L, 250L);
    TableHealth sum = after.summary();
    assertThat(sum).isEqualTo(new TableHealth(T1.toString(), 3, 1_995, 900, 12, 14, T1.minusSeconds(10).toString(),
        T1.minusSeconds(1).toString(), 8L, 250L));
    StepHealth step = TableHealthProbe.step("update-index", List.of("update-index"), before, after);
    assertThat(step.tablesAutovacuumed()).as("sbtest1 only; sbtest3 was not there before").isEqualTo(1);
    assertThat(step.tablesAutoanalyzed()).isEqualTo(1);
    assertThat(step.healthBefore().lastAutovacuum()).isEqualTo(T0.minusSeconds(60).toString());
    assertThat(step.maintenanceAfter()).isNull();
  }

  @Test
  void aMissingSnapshotLeavesWhatItCannotKnowNull() {
    Snapshot after = new Snapshot(T1, List.of(new TableRow("t", 1, 1, 0, 0, null, null)), null, null);
    StepHealth noBefore = TableHealthProbe.step("s", List.of("s"), null, after);
    assertThat(noBefore.healthBefore()).isNull();
    assertThat(noBefore.tablesAutovacuumed()).isNull();
    assertThat(noBefore.healthAfter().checkpoints()).isNull();
    assertThat(TableHealthProbe.step("s", List.of("s"), after, null).healthAfter()).isNull();
  }

  @Test
  void betweenStepsReadsItsCommandLineNames() {
    assertThat(BetweenSteps.parse("vacuum-analyze")).isEqualTo(BetweenSteps.VACUUM_ANALYZE);
    assertThat(BetweenSteps.parse(" Checkpoint ")).isEqualTo(BetweenSteps.CHECKPOINT);
    assertThat(BetweenSteps.NONE.id()).isEqualTo("none");
    assertThatThrownBy(() -> BetweenSteps.parse("vacuum")).isInstanceOf(BadInputException.class)
        .hasMessage("--between-steps 'vacuum': use none, analyze, vacuum-analyze or checkpoint");
  }
}
