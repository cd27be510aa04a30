package dev.benchlake.app.study;

import dev.benchlake.core.cli.BadInputException;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * {@code study versions --preset NAME}: option values that set a study up for one purpose, each
 * applied only where the command line does not give that option (nor, for the step durations,
 * {@code --duration}), so a preset is a starting point a user can still change option by option.
 */
enum StudyPreset {
  /**
   * As close to the published PostgreSQL 11→16 study (mytools' 2023 sequence, 8 clients, 4 tables of
   * 20M rows, 600 s reads and 1200 s writes after 5 s warm-ups) as a 2-core machine runs in under an
   * hour for two majors: the 2023 sequence on 4 tables of 1M rows (larger than the default
   * shared_buffers, so the steps read through the buffer cache rather than planning short statements),
   * 10 s reads and 20 s writes after 2 s warm-ups, one client (a duet: one a side's CPU). Measured at
   * load 21 on 2 cores: loading the 4M rows 84 s, a 10 s step 12 s with its warm-up; so a run is about
   * 12 minutes, --pg 11,16 --rounds 2 about 50 minutes (docs/tour.md).
   */
  PUBLISHED_SMALL("published-small", Map.of("--steps", List.of("mytools-2023"), "--tables", 4, "--table-size",
      1_000_000, "--read-duration", Duration.ofSeconds(10), "--write-duration", Duration.ofSeconds(20), "--warmup",
      Duration.ofSeconds(2)));

  /** Options a preset leaves alone when {@code --duration} is given: it already says how long every step runs. */
  private static final List<String> DURATIONS = List.of("--read-duration", "--write-duration");

  private final String id;
  private final Map<String, Object> values;

  StudyPreset(String id, Map<String, Object> values) {
    this.id = id;
    this.values = new LinkedHashMap<>(values);
  }

  /** @throws BadInputException naming the known presets */
  static StudyPreset byName(String name) {
    return Arrays.stream(values()).filter(p -> p.id.equals(name.strip())).findFirst()
        .orElseThrow(() -> new BadInputException("unknown --preset '" + name + "'; known: "
            + String.join(", ", Arrays.stream(values()).map(p -> p.id).toList())));
  }

  /** Sets each of its options the command line of {@code spec} did not give. */
  void apply(CommandSpec spec) {
    ParseResult given = spec.commandLine().getParseResult();
    values.forEach((option, value) -> {
      boolean durationGiven = DURATIONS.contains(option) && given.hasMatchedOption("--duration");
      if (!given.hasMatchedOption(option) && !durationGiven) {
        spec.findOption(option).setValue(value);
      }
    });
  }
}
