package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Sides;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the runs' server starts (the runs table's nullable {@code server_start}) say of replication. */
class ReplicatesTest {
  @Test
  void runsOfOneGroupThatShareAServerStartAreNotIndependentReplicates() {
    RunGroups groups = new RunGroups(Sides.of(List.of("b1", "b2", "b3"), List.of("c1", "c2")),
        Map.of("b1", "2026-12-01T10:00:00Z /tmp/pg14", "b2", "2026-12-01T10:00:00Z /tmp/pg14",
            "b3", "2026-12-01T10:05:00Z /tmp/pg14", "c1", "s1", "c2", "s2"),
        Pairing.UNPAIRED);
    assertThat(Replicates.describe(groups)).containsExactly("The baseline runs b1, b2 share one server start"
        + " (2026-12-01T10:00:00Z /tmp/pg14): these runs are not independent replicates, and the intervals may be too"
        + " narrow.");
  }

  @Test
  void withoutRecordedServerStartsTheReportSaysSo() {
    // An absent column and null values read the same: no entry in the map.
    RunGroups groups = new RunGroups(Sides.of(List.of("b1", "b2"), List.of("c1", "c2")), Map.of("c1", "s1", "c2", "s2"),
        Pairing.UNPAIRED);
    assertThat(Replicates.describe(groups)).containsExactly("Server starts were not recorded for the baseline runs:"
        + " whether they are independent replicates is unknown.");
  }
}
