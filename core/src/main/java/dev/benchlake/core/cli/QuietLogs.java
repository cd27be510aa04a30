package dev.benchlake.core.cli;

/**
 * Quiets a family of loggers for a command whose own status lines say what they would (the quickstart and the
 * studies quiet the analysis' INFO lines unless {@code --verbose}). Through log4j, bin/benchlake's backend;
 * under another backend (a cluster's own) its configuration decides and this does nothing.
 */
public final class QuietLogs {
  private QuietLogs() {}

  /** Logs below WARN of {@code logger} and its children are dropped, unless it logs at DEBUG (BENCHLAKE_LOG_LEVEL). */
  public static void warnOnly(String logger) {
    try {
      if (org.apache.logging.log4j.LogManager.getLogger(logger).isDebugEnabled()) {
        return;
      }
      org.apache.logging.log4j.core.config.Configurator.setLevel(logger, org.apache.logging.log4j.Level.WARN);
    } catch (RuntimeException | LinkageError e) {
      // Not log4j's core (a cluster's own backend): its configuration decides.
    }
  }
}
