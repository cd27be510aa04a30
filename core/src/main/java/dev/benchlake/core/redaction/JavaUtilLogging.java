package dev.benchlake.core.redaction;

import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.SimpleFormatter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.message.Message;
import org.apache.logging.log4j.message.SimpleMessage;

/**
 * java.util.logging's records sent to log4j, and so through {@link RedactionRewritePolicy} like every
 * other event, instead of to JUL's own console handler, which no redaction sees: pgjdbc logs through
 * JUL, and its warnings print the URL it was given ("JDBC URL must contain a / …: jdbc:postgresql://
 * u:pw?x@h/db"). Each record goes to the log4j logger of the same name at the matching level, so
 * that log4j's configuration decides what is shown (pgjdbc's at WARN and above, as Spark's and
 * Hadoop's). Spark, when it starts, replaces this handler by its own bridge to the same log4j
 * (jul-to-slf4j): both end in the redacted appenders.
 */
final class JavaUtilLogging extends Handler {
  private final SimpleFormatter messages = new SimpleFormatter();
  private final LoggerContext log4j;

  private JavaUtilLogging(LoggerContext log4j) {
    this.log4j = log4j;
  }

  /** Replaces the root JUL logger's handlers by one that forwards to {@code log4j}'s loggers; idempotent. */
  static void route(LoggerContext log4j) {
    java.util.logging.Logger root = java.util.logging.LogManager.getLogManager().getLogger("");
    for (Handler handler : root.getHandlers()) {
      if (handler instanceof JavaUtilLogging routed && routed.log4j == log4j) {
        return;
      }
    }
    for (Handler handler : root.getHandlers()) {
      root.removeHandler(handler);
    }
    root.addHandler(new JavaUtilLogging(log4j));
  }

  @Override
  public void publish(LogRecord record) {
    if (record == null || record.getLevel() == null) {
      return;
    }
    org.apache.logging.log4j.Logger logger = log4j.getLogger(record.getLoggerName() == null ? "" : record.getLoggerName());
    Level level = level(record.getLevel().intValue());
    if (logger.isEnabled(level)) {
      logger.log(level, (Message) new SimpleMessage(messages.formatMessage(record)), record.getThrown());
    }
  }

  private static Level level(int jul) {
    if (jul >= java.util.logging.Level.SEVERE.intValue()) {
      return Level.ERROR;
    }
    if (jul >= java.util.logging.Level.WARNING.intValue()) {
      return Level.WARN;
    }
    if (jul >= java.util.logging.Level.INFO.intValue()) {
      return Level.INFO;
    }
    return jul >= java.util.logging.Level.FINE.intValue() ? Level.DEBUG : Level.TRACE;
  }

  @Override
  public void flush() {}

  @Override
  public void close() {}
}
