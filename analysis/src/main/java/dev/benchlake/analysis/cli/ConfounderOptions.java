package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.core.cli.BadInputException;
import picocli.CommandLine.Option;

/** The table-maintenance check's option of {@code compare} and {@code trend}, defined once. */
public final class ConfounderOptions {
  @Option(names = "--dead-tuple-threshold", paramLabel = "F", defaultValue = "0.05",
      description = "Flag a step whose mean dead-tuple fraction at its start (n_dead/(n_live+n_dead), from loadgen's"
          + " table health) differs between the compared sides by more than F, absolute (default: ${DEFAULT-VALUE},"
          + " the size of the default margin). Autovacuum or autoanalyze during one side's step only is always flagged.")
  double deadTupleThreshold = TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD;

  /** {@code --dead-tuple-threshold}, in [0, 1). */
  public double deadTupleThreshold() {
    if (!(deadTupleThreshold >= 0 && deadTupleThreshold < 1)) {
      throw new BadInputException("--dead-tuple-threshold must be in [0, 1), not " + deadTupleThreshold);
    }
    return deadTupleThreshold;
  }
}
