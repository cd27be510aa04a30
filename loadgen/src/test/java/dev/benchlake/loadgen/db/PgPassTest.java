package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PgPassTest {
  private static final PgPass.Key KEY = new PgPass.Key("db.example", "5432", "bench", "alice");

  @TempDir
  Path tmp;

  @Test
  void firstMatchingLineWinsWithWildcards() {
    List<String> lines = List.of(
        "# comment",
        "",
        "other.host:5432:bench:alice:wrong",
        "db.example:*:bench:alice:right",
        "*:*:*:*:fallback");
    assertThat(PgPass.match(lines, KEY)).contains("right");
    assertThat(PgPass.match(lines, new PgPass.Key("x", "1", "y", "z"))).contains("fallback");
  }

  @Test
  void escapedColonsAndBackslashesAndTheEndOfThePassword() {
    assertThat(PgPass.match(List.of("db.example:5432:bench:alice:p\\:a\\\\ss:ignored"), KEY)).contains("p:a\\ss");
    assertThat(PgPass.match(List.of("db.example:5432:bench"), KEY)).isEmpty();
  }

  @Test
  void pgpasswordComesFirst() throws Exception {
    Path file = passFile("*:*:*:*:from-file", "rw-------");
    assertThat(PgPass.lookup(KEY, Map.of("PGPASSWORD", "from-env", "PGPASSFILE", file.toString()))).contains("from-env");
    assertThat(PgPass.lookup(KEY, Map.of("PGPASSFILE", file.toString()))).contains("from-file");
  }

  @Test
  void aFileOthersCanReadIsIgnoredLikeLibpqDoes() throws Exception {
    Path file = passFile("*:*:*:*:exposed", "rw-r--r--");
    assertThat(PgPass.lookup(KEY, Map.of("PGPASSFILE", file.toString()))).isEqualTo(Optional.empty());
  }

  @Test
  void aMissingFileMeansNoPassword() {
    assertThat(PgPass.lookup(KEY, Map.of("PGPASSFILE", tmp.resolve("none").toString()))).isEmpty();
  }

  private Path passFile(String content, String permissions) throws Exception {
    Path file = tmp.resolve("pgpass");
    Files.writeString(file, content + "\n", StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
    return file;
  }

  /** Like libpq: ~ is $HOME when set (Java's user.home ignores it). */
  @Test
  void homeFromTheEnvironmentFindsItsPgpass() throws Exception {
    Path pgpass = Files.writeString(tmp.resolve(".pgpass"), "db.example:5432:bench:alice:from-home\n",
        StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(pgpass, PosixFilePermissions.fromString("rw-------"));
    assertThat(PgPass.passwordFile(Map.of("HOME", tmp.toString()))).isEqualTo(pgpass);
    assertThat(PgPass.lookup(KEY, Map.of("HOME", tmp.toString()))).contains("from-home");
    assertThat(PgPass.passwordFile(Map.of())).isEqualTo(Path.of(System.getProperty("user.home"), ".pgpass"));
  }
}
