package dev.benchlake.ingest.cli;

import dev.benchlake.core.testing.CommandRun;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** {@code benchlake ingest --warehouse DIR ARGS…} run in-process, for the command's tests. */
final class IngestCommands {
  private IngestCommands() {}

  static CommandRun ingestInto(Path warehouse, String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new IngestCommand(), all.toArray(String[]::new));
  }
}
