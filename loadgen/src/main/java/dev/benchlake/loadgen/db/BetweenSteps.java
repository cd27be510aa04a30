package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import java.util.Locale;

/**
 * {@code --between-steps}: what loadgen runs on the workload's tables after one step's table
 * health snapshot and before the next step's. {@code none} (the default) leaves maintenance to the
 * server, as the PostgreSQL 11→17 study did; the others make the steps' starting state the same
 * on every server: {@code analyze} refreshes the planner's statistics, {@code vacuum-analyze}
 * also removes the dead tuples of the previous steps' writes, {@code checkpoint} writes the dirty
 * buffers out so that the next step does not pay for the previous one's.
 */
public enum BetweenSteps {
  NONE,
  ANALYZE,
  VACUUM_ANALYZE,
  CHECKPOINT;

  /** As written in the manifest and on the command line: {@code vacuum-analyze}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** @throws BadInputException naming the choices */
  public static BetweenSteps parse(String text) {
    for (BetweenSteps b : values()) {
      if (b.id().equals(text.strip().toLowerCase(Locale.ROOT))) {
        return b;
      }
    }
    throw new BadInputException("--between-steps '" + text + "': use none, analyze, vacuum-analyze or checkpoint");
  }

  /** picocli's converter: {@code vacuum-analyze}, not the enum constant's name (loadgen and the studies). */
  public static final class Converter implements picocli.CommandLine.ITypeConverter<BetweenSteps> {
    @Override
    public BetweenSteps convert(String value) {
      return parse(value);
    }
  }

  @Override
  public String toString() {
    return id();
  }
}
