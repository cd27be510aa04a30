package dev.benchlake.core.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Update mode writes into this module's source tree, whatever the working directory. */
class GoldenTest {
  @Test
  void goldenFilesOfATestClassLiveInItsOwnModulesTestResources() {
    Path core = Path.of(GoldenTest.class.getProtectionDomain().getCodeSource().getLocation().getPath())
        .getParent().getParent();
    assertThat(Golden.sourceFile(GoldenTest.class, "x.golden"))
        .isEqualTo(core.resolve("src/test/resources/dev/benchlake/core/testing/x.golden"));
    assertThat(Golden.sourceFile(GoldenTest.class, "/dev/benchlake/other/y.golden"))
        .isEqualTo(core.resolve("src/test/resources/dev/benchlake/other/y.golden"));
    assertThat(core.resolve("pom.xml")).exists();
    assertThat(core.getFileName().toString()).isEqualTo("core");
  }
}
