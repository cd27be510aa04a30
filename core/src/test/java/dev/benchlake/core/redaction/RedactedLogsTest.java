package dev.benchlake.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.logging.log4j.core.LoggerContext;
import org.junit.jupiter.api.Test;

/**
 * A log4j configuration benchlake did not write (spark-submit's, the standalone loadgen's), once
 * {@link RedactedLogs#install} ran: secrets in messages and stack traces are scrubbed, the rest is
 * logged as it was.
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
}
