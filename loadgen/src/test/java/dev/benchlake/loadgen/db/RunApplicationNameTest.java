package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.loadgen.TestServers;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Each run's connections carry its own application_name, and the table health probe waits for
 * those only: with one name for every run, a run beside another on the same server counted the
 * other's connections and waited out its settle time-out before every snapshot (5 s at the start
 * of the run and after each step; found by bench/head_to_head.py, whose second loadgen started
 * its tasks 5 s late).
 */
class RunApplicationNameTest {

  @Test
  void theNameHoldsTheRunIdAsTheServerWillStoreIt() {
    String uuid = "e96b1ebf-f1c7-4417-9d4b-21957d18d278";
    assertThat(Database.applicationName(uuid)).isEqualTo("benchlake-loadgen " + uuid);
    String hostile = "é run\tid " + "x".repeat(80);
    String name = Database.applicationName(hostile);
    assertThat(name).startsWith("benchlake-loadgen __run_id_x").matches("[\\x21-\\x7e ]+");
    assertThat(name.getBytes(StandardCharsets.UTF_8)).hasSize(63);
  }

  @Test
  @Tag("integration")
  void theProbeCountsItsOwnRunsConnectionsAndNotThoseOfAnotherRunOnTheSameServer() throws SQLException {
    EmbeddedServer server = TestServers.shared();
    JdbcTarget target = JdbcTarget.trusted(server.jdbcUrl(), server.user());
    // A run id the server would mangle if it were passed as is (non-ASCII, longer than 63 bytes).
    Database ours = database(target, "é" + UUID.randomUUID() + "-" + "y".repeat(40));
    Database theirs = database(target, UUID.randomUUID().toString());
    try (TableHealthProbe probe = new TableHealthProbe(ours.connect(), 17, List.of(), ours.applicationName());
        Connection other = theirs.connect()) {
      assertThat(probe.connectionsStillThere(Instant.EPOCH)).as("another run's open connection").isZero();
      try (Connection own = ours.connect()) {
        assertThat(storedName(own)).isEqualTo(ours.applicationName());
        assertThat(storedName(other)).isEqualTo(theirs.applicationName());
        assertThat(probe.connectionsStillThere(Instant.EPOCH)).as("this run's open connection").isEqualTo(1);
      }
    }
  }

  private static Database database(JdbcTarget target, String runId) {
    return new Database(target, Duration.ofSeconds(10), Duration.ofSeconds(30), runId);
  }

  private static String storedName(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("select application_name from pg_stat_activity where pid = pg_backend_pid()")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
