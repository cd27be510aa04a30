package dev.benchlake.loadgen;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.redaction.RedactedLogs;
import java.net.URL;

/**
 * {@code java -jar benchlake-loadgen.jar …}: loadgen on its own, on a machine with only a JVM
 * (the standalone jar built by this module). Same options as {@code benchlake loadgen}.
 */
public final class LoadgenMain {
  private LoadgenMain() {}

  public static void main(String[] args) {
    if (System.getProperty("log4j2.configurationFile") == null) {
      URL config = LoadgenMain.class.getResource("log4j2-standalone.properties");
      if (config != null) {
        System.setProperty("log4j2.configurationFile", config.toString());
      }
    }
    // Whatever the configuration (ours or the user's), every log event is scrubbed of secrets.
    RedactedLogs.install();
    System.exit(Cli.execute(new LoadgenCommand(), args));
  }
}
