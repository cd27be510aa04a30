package dev.benchlake.ingest;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.ingest.cli.IngestCommand;

/** {@code benchlake ingest} as its own process, for tests that kill it or race two of them. */
public final class IngestMain {
  private IngestMain() {}

  public static void main(String[] args) {
    System.exit(Cli.execute(new IngestCommand(), args));
  }
}
