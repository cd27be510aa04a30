package dev.benchlake.loadgen.workload;

import java.util.List;

/**
 * One step as {@link SysbenchWorkload} runs it: its name, its ops in order and the parameters they
 * read, already resolved (a {@link SysbenchStep} or {@link MytoolsStep} with the run's options).
 *
 * @param name the step's name in tasks.csv
 * @param ops what one task sends, in order
 * @param rangeSize ids per range query ({@code id BETWEEN x AND x + rangeSize − 1})
 * @param points values per IN list, and the width of the mytools range-covered ranges
 * @param randType how ids are drawn
 * @param idMax ids are drawn in 1..idMax (the table size; 1 for update-one)
 * @param writes whether the step changes data
 * @param writeDuration whether it runs for --write-duration (else --read-duration)
 * @param vacuumAfter whether {@code VACUUM (ANALYZE)} of every table and a {@code CHECKPOINT} follow its tasks
 */
record SysbenchSpec(String name, List<SysbenchOp> ops, int rangeSize, int points, RandType randType, int idMax,
    boolean writes, boolean writeDuration, boolean vacuumAfter) {
  SysbenchSpec {
    ops = List.copyOf(ops);
  }

  /** select_random_* use sbtest1 only, as sysbench's scripts. */
  boolean firstTableOnly() {
    return ops.contains(SysbenchOp.RANDOM_POINTS) || ops.contains(SysbenchOp.RANDOM_RANGES);
  }
}
