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
 * cluster's {@code log4j2.properties}) and the standalone loadgen jar. bin/benchlake's own
 * configuration declares the same policy itself.
 */
public final class RedactedLogs {
  private static final String PREFIX = "redacted:";

  private RedactedLogs() {}

  /** Idempotent; does nothing when log4j is not the logging backend. */
  public static void install() {
    if (LogManager.getContext(false) instanceof LoggerContext context) {
      install(context);
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
