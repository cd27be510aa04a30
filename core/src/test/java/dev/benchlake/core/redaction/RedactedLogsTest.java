package dev.benchlake.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.junit.jupiter.api.Test;

/**
 * A log4j configuration benchlake did not write (spark-submit's, the standalone loadgen's), once
 * {@link RedactedLogs#install} ran: secrets in messages and stack traces are scrubbed, the rest is
 * logged as it was; java.util.logging's records go the same way.
 */
class RedactedLogsTest {
  @Test
  void everyAppenderOfTheRunningConfigurationGetsTheRedaction() {
    StringWriter written = new StringWriter();
    LoggerContext context = writingTo(written, "%p %m%n%ex", Level.INFO);
    try {
      RedactedLogs.install(context);
      RedactedLogs.install(context); // idempotent: one wrapper, each event written once

      var log = context.getLogger("dev.benchlake.test");
      log.info("starting with --conf spark.hadoop.fs.azure.account.key.a.blob.core.windows.net={}", "CANARY-1");
      log.warn("cannot read", new IllegalStateException("jdbc:postgresql://u:CANARY-2@h/db",
          new RuntimeException("token=CANARY-3")));
      log.error("plain failure", new IllegalArgumentException("nothing secret"));
      log.info("step=primary-key-lookup");

      String text = written.toString();
      assertThat(text).doesNotContain("CANARY")
          .contains("fs.azure.account.key.a.blob.core.windows.net=" + Redaction.MARKER)
          .contains("IllegalStateException: jdbc:postgresql://u:" + Redaction.MARKER + "@h/db")
          .contains("Caused by: java.lang.RuntimeException: token=" + Redaction.MARKER)
          .contains("ERROR plain failure", "IllegalArgumentException: nothing secret", "INFO step=primary-key-lookup");
      assertThat(text.split("plain failure", -1)).hasSize(2);
    } finally {
      context.stop();
    }
  }

  /**
   * pgjdbc logs through java.util.logging, whose console no log4j redaction sees; its warning prints
   * the URL as given, a password with {@code ?} or {@code /} included. Routed, the record reaches
   * log4j's appenders at its level, scrubbed; below log4j's level it is not shown.
   */
  @Test
  void javaUtilLoggingGoesThroughTheSameRedaction() {
    StringWriter written = new StringWriter();
    LoggerContext context = writingTo(written, "%p %c{1}: %m%n", Level.WARN);
    java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
    java.util.logging.Handler[] before = root.getHandlers();
    try {
      RedactedLogs.install(context);
      JavaUtilLogging.route(context);
      JavaUtilLogging.route(context); // idempotent: one handler, each record written once

      java.util.logging.Logger driver = java.util.logging.Logger.getLogger("org.postgresql.Driver");
      driver.log(java.util.logging.Level.WARNING, "JDBC URL must contain a / at the end of the host or port: {0}",
          "jdbc:postgresql://u:CANARY-4?x/y@h:5432/db");
      driver.log(java.util.logging.Level.INFO, "connecting to {0}", "somewhere");

      assertThat(written.toString()).doesNotContain("CANARY").doesNotContain("somewhere")
          .isEqualTo("WARN Driver: JDBC URL must contain a / at the end of the host or port: jdbc:postgresql://u:"
              + Redaction.MARKER + "@h:5432/db" + System.lineSeparator());
    } finally {
      for (java.util.logging.Handler handler : root.getHandlers()) {
        root.removeHandler(handler);
      }
      for (java.util.logging.Handler handler : before) {
        root.addHandler(handler);
      }
      context.stop();
    }
  }

  /** A started log4j context whose root logs at {@code level} to {@code written} only, as a configuration benchlake did not write. */
  private static LoggerContext writingTo(StringWriter written, String pattern, Level level) {
    LoggerContext context = new LoggerContext("redacted-logs-test");
    context.start();
    Configuration config = context.getConfiguration();
    WriterAppender out = WriterAppender.newBuilder().setName("out").setTarget(written)
        .setLayout(PatternLayout.newBuilder().withPattern(pattern).withConfiguration(config).build()).build();
    out.start();
    config.addAppender(out);
    LoggerConfig root = config.getRootLogger();
    root.getAppenders().keySet().forEach(root::removeAppender);
    root.addAppender(out, null, null);
    root.setLevel(level);
    context.updateLoggers();
    return context;
  }
}
