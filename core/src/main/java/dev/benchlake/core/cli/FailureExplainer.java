package dev.benchlake.core.cli;

/**
 * Part of a command (the command itself or one of its {@code @Mixin}s) that can tell when a
 * runtime failure was bad input after all: the warehouse option knows that a Spark job which failed
 * on one of the warehouse's data files met a damaged file (exit 2, naming it), not a runtime
 * failure (exit 1). {@link Cli} asks every such part of the command that failed.
 */
public interface FailureExplainer {
  /** {@code failure} as the bad input it was, or null when it was not. */
  BadInputException explain(Throwable failure);
}
