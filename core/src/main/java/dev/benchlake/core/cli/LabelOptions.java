package dev.benchlake.core.cli;

import dev.benchlake.core.Labels;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import picocli.CommandLine.Option;

/**
 * {@code --label KEY=VALUE} (repeatable), the same for every command that takes labels
 * ({@code loadgen}, {@code ingest}): one spelling, one validation ({@link Labels#parse}), one
 * error message. Use as a picocli {@code @Mixin}.
 */
public final class LabelOptions {
  @Option(names = "--label", paramLabel = "KEY=VALUE",
      description = "A label (repeatable), e.g. os=linux: what the results cannot know about themselves "
          + "(os, host, db_version, date…); it overrides what a source says.")
  List<String> labels = new ArrayList<>();

  /**
   * The labels by key (a later one wins).
   *
   * @throws BadInputException naming the bad label
   */
  public SortedMap<String, String> labels() {
    SortedMap<String, String> parsed = new TreeMap<>();
    for (String label : labels) {
      try {
        Map.Entry<String, String> e = Labels.parse(label);
        parsed.put(e.getKey(), e.getValue());
      } catch (IllegalArgumentException e) {
        throw new BadInputException("--label: " + e.getMessage(), e);
      }
    }
    return parsed;
  }
}
