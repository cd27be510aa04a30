package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The initdb template is kept per user (issue 49): a template root made in the shared temp folder is mode
 * 0700, which every other user's server could not read, so each of theirs ran initdb again.
 */
class InitdbTemplatePerUserTest {
  @Test
  void eachUserKeepsATemplateOfTheirOwn() {
    Path tmp = Path.of("/tmp");
    Path root = InitdbTemplate.of(tmp, "17.2.0", "root").dir();
    Path plain = InitdbTemplate.of(tmp, "17.2.0", "bench").dir();
    assertThat(root).isNotEqualTo(plain);
    assertThat(plain.getFileName().toString()).isEqualTo("benchlake-initdb-17.2.0-bench");
    assertThat(InitdbTemplate.of(tmp, "17.2.0").dir())
        .isEqualTo(InitdbTemplate.of(tmp, "17.2.0", System.getProperty("user.name")).dir());
    assertThat(InitdbTemplate.of(tmp, "17.2.0", "a/b c").dir().getFileName().toString())
        .as("a user name is a file name's part, never a path").isEqualTo("benchlake-initdb-17.2.0-a_b_c");
  }
}
