package dev.benchlake.core.redaction;

import java.io.StringWriter;
import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.WriterAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.layout.PatternLayout;

/** A log4j context of its own whose root logs at one level (INFO unless given) through one {@code pattern}, into {@link #text}. */
final class CapturedLogs implements AutoCloseable {
  final LoggerContext context;
  private final StringWriter written = new StringWriter();

  CapturedLogs(String name, String pattern) {
    this(name, pattern, Level.INFO);
  }

  CapturedLogs(String name, String pattern, Level level) {
    context = new LoggerContext(name);
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
  }

  String text() {
    return written.toString();
  }

  @Override
  public void close() {
    context.stop();
  }
}
