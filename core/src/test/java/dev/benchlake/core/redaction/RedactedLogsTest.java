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
 * logged as it was.
 */
class RedactedLogsTest {
  @Test
  void everyAppenderOfTheRunningConfigurationGetsTheRedaction() {
    LoggerContext context = new LoggerContext("redacted-logs-test");
    context.start();
    try {
      StringWriter written = new StringWriter();
      Configuration config = context.getConfiguration();
      WriterAppender out = WriterAppender.newBuilder().setName("out").setTarget(written)
          .setLayout(PatternLayout.newBuilder().withPattern("%p %m%n%ex").withConfiguration(config).build()).build();
      out.start();
      config.addAppender(out);
      LoggerConfig root = config.getRootLogger();
      root.getAppenders().keySet().forEach(root::removeAppender);
      root.addAppender(out, null, null);
      root.setLevel(Level.INFO);
      context.updateLoggers();

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
}
