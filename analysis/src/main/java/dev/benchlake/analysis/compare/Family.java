package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Direction;

/**
 * The per-run figures θ is computed of, each a family of tests corrected across the steps on its
 * own. The median decides a step's verdict; p99 and throughput are shown beside it.
 */
public enum Family {
  MEDIAN("median", Direction.LOWER_IS_BETTER),
  P99("p99", Direction.LOWER_IS_BETTER),
  THROUGHPUT("throughput", Direction.HIGHER_IS_BETTER);

  private final String metric;
  private final Direction direction;

  Family(String metric, Direction direction) {
    this.metric = metric;
    this.direction = direction;
  }

  /** As report.json names it: {@code median}, {@code p99}, {@code throughput}. */
  public String metric() {
    return metric;
  }

  public Direction direction() {
    return direction;
  }

  /** This family's figure of one run; null where the run has none. */
  public Double figureOf(RunFigure run) {
    return switch (this) {
      case MEDIAN -> run.medianS();
      case P99 -> run.p99S();
      case THROUGHPUT -> run.throughputPerS();
    };
  }

  /** What a run needs to have this figure, for the reasons a family cannot be estimated. */
  String figureNoun() {
    return this == THROUGHPUT ? "measurable throughput" : "successful task";
  }
}
