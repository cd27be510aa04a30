package dev.benchlake.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;

/**
 * A log4j configuration benchlake did not write (spark-submit's, the standalone loadgen's), once
 * {@link RedactedLogs#install} ran: secrets in messages and stack traces are scrubbed, the rest is
 * logged as it was; java.util.logging's records go the same way.
 */
class RedactedLogsTest {
  @Test
  void everyAppenderOfTheRunningConfigurationGetsTheRedaction() {
    try (CapturedLogs logs = new CapturedLogs("redacted-logs-test", "%p %m%n%ex")) {
      LoggerContext context = logs.context;
      RedactedLogs.install(context);
      RedactedLogs.install(context); // idempotent: one wrapper, each event written once

      var log = context.getLogger("dev.benchlake.test");
      log.info("starting with --conf spark.hadoop.fs.azure.account.key.a.blob.core.windows.net={}", "CANARY-1");
      log.warn("cannot read", new IllegalStateException("jdbc:postgresql://u:CANARY-2@h/db",
          new RuntimeException("token=CANARY-3")));
      log.error("plain failure", new IllegalArgumentException("nothing secret"));
      log.info("step=primary-key-lookup");

      String text = logs.text();
      assertThat(text).doesNotContain("CANARY")
          .contains("fs.azure.account.key.a.blob.core.windows.net=" + Redaction.MARKER)
          .contains("IllegalStateException: jdbc:postgresql://u:" + Redaction.MARKER + "@h/db")
          .contains("Caused by: java.lang.RuntimeException: token=" + Redaction.MARKER)
          .contains("ERROR plain failure", "IllegalArgumentException: nothing secret", "INFO step=primary-key-lookup");
      assertThat(text.split("plain failure", -1)).hasSize(2);
    }
  }

  /**
   * pgjdbc logs through java.util.logging, whose console no log4j redaction sees; its warning prints
   * the URL as given, a password with {@code ?} or {@code /} included. Routed, the record reaches
   * log4j's appenders at its level, scrubbed; below log4j's level it is not shown.
   */
  @Test
  void javaUtilLoggingGoesThroughTheSameRedaction() {
    java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
    java.util.logging.Handler[] before = root.getHandlers();
    try (CapturedLogs logs = new CapturedLogs("jul-test", "%p %c{1}: %m%n", Level.WARN)) {
      LoggerContext context = logs.context;
      RedactedLogs.install(context);
      JavaUtilLogging.route(context);
      JavaUtilLogging.route(context); // idempotent: one handler, each record written once

      java.util.logging.Logger driver = java.util.logging.Logger.getLogger("org.postgresql.Driver");
      driver.log(java.util.logging.Level.WARNING, "JDBC URL must contain a / at the end of the host or port: {0}",
          "jdbc:postgresql://u:CANARY-4?x/y@h:5432/db");
      driver.log(java.util.logging.Level.INFO, "connecting to {0}", "somewhere");

      assertThat(logs.text()).doesNotContain("CANARY").doesNotContain("somewhere")
          .isEqualTo("WARN Driver: JDBC URL must contain a / at the end of the host or port: jdbc:postgresql://u:"
              + Redaction.MARKER + "@h:5432/db" + System.lineSeparator());
    } finally {
      for (java.util.logging.Handler handler : root.getHandlers()) {
        root.removeHandler(handler);
      }
      for (java.util.logging.Handler handler : before) {
        root.addHandler(handler);
      }
    }
  }
}
