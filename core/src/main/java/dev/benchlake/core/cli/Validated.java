package dev.benchlake.core.cli;

import java.nio.file.Path;
import java.util.List;

/**
 * A command whose option values are checked before it does anything: {@link #validate} is its one
 * place for that, run first by its own {@code call()} and, for every line of a {@code batch}, before
 * the first line runs. So a bad value is one line and exit 2 whether the command runs alone or on
 * line 9 of a batch, and a batch never runs line 1 of a batch whose line 2 is wrong.
 *
 * <p>What belongs there: every check of what the user typed that needs neither a server, nor Spark,
 * nor a write: values and their ranges, names (a metric, a format, a step), selectors, durations and
 * counts, the combinations of options, a location's form (no credentials in it), and the files and
 * folders the command reads (there, of the right kind) or creates (absent or empty, its parent
 * writable). What does not: what the warehouse holds (an earlier line of a batch may write it), what
 * a server says, what Spark finds.
 */
public interface Validated {
  /**
   * Checks the command's options as above, without side effects: nothing started, created or
   * written (files are only looked at).
   *
   * @param before what earlier lines of a batch will have written (a file or folder an input may
   *     be under); {@link Preflight#ALONE} for a command run on its own
   * @throws BadInputException naming the option, the value and what it must be
   */
  void validate(Preflight before);

  /** The local files and folders the command writes (its {@code --out}, its warehouse), for the lines after it. */
  default List<Path> writes() {
    return List.of();
  }

  /** The command's writes of {@code paths} that are set, absolute and normalised (a helper for {@link #writes}). */
  static List<Path> local(Path... paths) {
    return java.util.Arrays.stream(paths).filter(java.util.Objects::nonNull)
        .map(p -> p.toAbsolutePath().normalize()).toList();
  }
}
