package dev.benchlake.warehouse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** A local Delta table's log as tests read it: its actions, as written, commit by commit. */
public final class DeltaLogActions {
  private DeltaLogActions() {}

  /** The actions of the table's log that start with {@code prefix} ({@code {"add"}, {@code {"metaData"}…), oldest first. */
  public static List<String> of(Path table, String prefix) throws IOException {
    List<String> actions = new ArrayList<>();
    try (Stream<Path> log = Files.list(table.resolve("_delta_log"))) {
      for (Path commit : log.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        Files.readAllLines(commit, StandardCharsets.UTF_8).stream().filter(a -> a.startsWith(prefix)).forEach(actions::add);
      }
    }
    return actions;
  }
}
