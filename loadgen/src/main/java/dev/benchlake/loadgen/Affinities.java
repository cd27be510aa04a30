package dev.benchlake.loadgen;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.raw.CpuAffinity;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The manifest's {@code cpu_affinity}: which CPUs this process, and the embedded server's
 * postmaster and one of its backends, may run on, read from the kernel. An embedded server
 * inherits the set of the process that started it (pg_ctl forks it; the postmaster forks every
 * backend), so a client started under {@code taskset} pins its server too; a server by URL is not
 * ours to read or to pin.
 */
final class Affinities {
  private Affinities() {}

  /** @return null where the kernel does not say (not Linux) */
  static CpuAffinity read(Connection setup, EmbeddedServer embedded) {
    Optional<CpuList> client = CpuList.allowedForThisProcess();
    if (client.isEmpty()) {
      return null;
    }
    String server = null;
    String backend = null;
    if (embedded != null) {
      server = postmasterPid(embedded.dataDirectory()).flatMap(CpuList::allowedFor).map(CpuList::toString).orElse(null);
      backend = backendPid(setup).flatMap(CpuList::allowedFor).map(CpuList::toString).orElse(null);
    }
    return new CpuAffinity(client.get().toString(), server, backend);
  }

  /** The first line of {@code postmaster.pid}. */
  private static Optional<Long> postmasterPid(Path dataDirectory) {
    try {
      List<String> lines = Files.readAllLines(dataDirectory.resolve("postmaster.pid"), StandardCharsets.UTF_8);
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException e) {
      return Optional.empty();
    }
  }

  private static Optional<Long> backendPid(Connection c) {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT pg_backend_pid()")) {
      return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
    } catch (SQLException e) {
      return Optional.empty();
    }
  }
}
