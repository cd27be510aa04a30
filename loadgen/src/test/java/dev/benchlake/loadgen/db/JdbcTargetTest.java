package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.redaction.Redaction;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.postgresql.PGProperty;

class JdbcTargetTest {
  @Test
  void stripsUserAndEveryPasswordParameter() {
    assertThat(JdbcTarget.stripSecrets("jdbc:postgresql://h:5/db?user=bob&ssl=true&sslpassword=x&ApplicationName=a"))
        .isEqualTo("jdbc:postgresql://h:5/db?ssl=true&ApplicationName=a");
    assertThat(JdbcTarget.stripSecrets("jdbc:postgresql://h/db?user=bob")).isEqualTo("jdbc:postgresql://h/db");
    assertThat(JdbcTarget.stripSecrets("jdbc:postgresql://h/db")).isEqualTo("jdbc:postgresql://h/db");
  }

  @Test
  void refusesAPasswordInTheUrlWithoutRepeatingIt() {
    // The user:password@ form: pgjdbc took "u:…@h" for a host, and "cannot connect to" showed it.
    for (String url : new String[] {"jdbc:postgresql://h/db?password=Sekr1tSekr1t", "jdbc:postgresql://u:Sekr1tSekr1t@h/db",
        "jdbc:postgresql://h/db;password=Sekr1tSekr1t", "jdbc:postgresql://h/db?user=u&pwd=Sekr1tSekr1t",
        "jdbc:postgresql://h/db?sslpassword=Sekr1tSekr1t",
        // pgjdbc parses no user info: whatever is before the last '@' may be the password, as typed
        // ('#', '?', '/' and '@' in it); refused before pgjdbc's own warnings print the URL.
        "jdbc:postgresql://u:Sekr1t#Sekr1t@h/db", "jdbc:postgresql://u:Sekr1t?Sekr1t@h:5432/db",
        "jdbc:postgresql://u:Sekr1t/Sekr1t@h/db", "jdbc:postgresql://u:Sekr1t@Sekr1t@h/db"}) {
      assertThatThrownBy(() -> JdbcTarget.of(url, "u", Map.of())).as(url)
          .isInstanceOf(BadInputException.class).hasMessageContaining("must not carry a password")
          .message().doesNotContain("Sekr1t");
    }
  }

  @Test
  void userComesFromTheOptionThenTheUrl() {
    assertThat(JdbcTarget.of("jdbc:postgresql://h/db?user=fromurl", "fromoption", Map.of()).user()).isEqualTo("fromoption");
    JdbcTarget fromUrl = JdbcTarget.of("jdbc:postgresql://h:6543/db?user=fromurl", null, Map.of());
    assertThat(fromUrl.user()).isEqualTo("fromurl");
    assertThat(fromUrl.safeUrl()).isEqualTo("jdbc:postgresql://h:6543/db");
    assertThat(fromUrl.host()).isEqualTo("h");
    assertThat(fromUrl.port()).isEqualTo("6543");
    assertThat(fromUrl.database()).isEqualTo("db");
  }

  @Test
  void thePasswordGoesIntoConnectionPropertiesAndIsScrubbedFromMessages() {
    JdbcTarget t = JdbcTarget.of("jdbc:postgresql://h/db", "u", Map.of("PGPASSWORD", "s3cret-value"));
    assertThat(t.hasPassword()).isTrue();
    assertThat(PGProperty.PASSWORD.getOrDefault(t.connectionProperties(new java.util.Properties())))
        .isEqualTo("s3cret-value");
    assertThat(t.scrub("connect failed for s3cret-value@h")).isEqualTo("connect failed for " + Redaction.MARKER + "@h");
    assertThat(t.scrub("FATAL: bad connection string password=other-one")).doesNotContain("other-one");
    assertThat(t.toString()).doesNotContain("s3cret");
  }
}
