package dev.benchlake.analysis.stats;

/** STAND-IN for branch trend's verdict core (replaced at merge): the four run-level verdicts. */
public enum Verdict {
  FASTER, SLOWER, EQUIVALENT, INCONCLUSIVE
}
