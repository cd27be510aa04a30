package dev.benchlake.core.redaction;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.Appender;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.rewrite.RewriteAppender;
import org.apache.logging.log4j.core.config.AppenderRef;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;

/**
 * Puts every appender of the running log4j configuration behind {@link RedactionRewritePolicy}, for
 * the JVMs whose logging benchlake does not configure: spark-submit's driver (Spark's or the
 * cluster's {@code log4j2.properties}), the standalone loadgen jar and a duet's sides. bin/benchlake's
 * own configuration declares the same policy itself. Either way java.util.logging goes to log4j
 * too ({@link #routeJavaUtilLogging}).
 */
public final class RedactedLogs {
  private static final String PREFIX = "redacted:";

  private RedactedLogs() {}

  /** Idempotent; does nothing when log4j is not the logging backend. */
  public static void install() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      install(context);
      JavaUtilLogging.route(context);
    }
  }

  /**
   * Sends java.util.logging's records (pgjdbc's) to log4j, whose appenders redact, instead of to JUL's
   * own console, which no redaction sees. For bin/benchlake, whose log4j configuration is redacted
   * already; {@link #install()} does it too. Idempotent; does nothing when log4j is not the backend.
   */
  public static void routeJavaUtilLogging() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      JavaUtilLogging.route(context);
    }
  }

  static void install(LoggerContext context) {
    Configuration config = context.getConfiguration();
    List<LoggerConfig> loggers = new ArrayList<>(config.getLoggers().values());
    if (!loggers.contains(config.getRootLogger())) {
      loggers.add(config.getRootLogger());
    }
    Map<String, Appender> redacting = new HashMap<>();
    for (LoggerConfig logger : loggers) {
      for (Appender appender : List.copyOf(logger.getAppenders().values())) {
        if (appender.getName().startsWith(PREFIX)) {
          continue;
        }
        AppenderRef ref = logger.getAppenderRefs().stream().filter(r -> r.getRef().equals(appender.getName()))
            .findFirst().orElse(null);
        Appender wrapper = redacting.computeIfAbsent(appender.getName(), name -> wrap(config, name));
        logger.removeAppender(appender.getName());
        logger.addAppender(wrapper, ref == null ? null : ref.getLevel(), ref == null ? null : ref.getFilter());
      }
    }
    context.updateLoggers();
  }

  private static Appender wrap(Configuration config, String name) {
    RewriteAppender wrapper = RewriteAppender.createAppender(PREFIX + name, "true",
        new AppenderRef[] {AppenderRef.createAppenderRef(name, null, null)}, config, RedactionRewritePolicy.create(), null);
    wrapper.start();
    config.addAppender(wrapper);
    return wrapper;
  }
}
