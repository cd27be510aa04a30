package dev.benchlake.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.LogManager;
import org.junit.jupiter.api.Test;

/** The quickstart and the studies quiet the analysis' INFO lines unless --verbose (issue 49). */
class QuietLogsTest {
  @Test
  void aQuietedFamilyLogsWarningsOnly() {
    String family = "dev.benchlake.quietlogstest";
    org.apache.logging.log4j.core.config.Configurator.setLevel(family, org.apache.logging.log4j.Level.INFO);
    org.apache.logging.log4j.core.config.Configurator.setLevel("dev.benchlake.other", org.apache.logging.log4j.Level.INFO);
    assertThat(LogManager.getLogger(family + ".Compare").isInfoEnabled()).isTrue();
    QuietLogs.warnOnly(family);
    assertThat(LogManager.getLogger(family + ".Compare").isInfoEnabled()).isFalse();
    assertThat(LogManager.getLogger(family + ".Compare").isWarnEnabled()).isTrue();
    assertThat(LogManager.getLogger("dev.benchlake.other").isInfoEnabled()).as("no other logger").isTrue();
  }

  @Test
  void aFamilyAskedToDebugStaysSo() {
    String family = "dev.benchlake.quietlogstest.debug";
    org.apache.logging.log4j.core.config.Configurator.setLevel(family, org.apache.logging.log4j.Level.DEBUG);
    QuietLogs.warnOnly(family);
    assertThat(LogManager.getLogger(family).isDebugEnabled()).isTrue();
  }
}
