package dev.benchlake.loadgen.workload;

/**
 * The building blocks of the sysbench-family steps, each one of sysbench's {@code execute_*}
 * functions (or the {@code event()} of one of the mytools Lua scripts). What each sends is in
 * {@link SysbenchWorkload}; {@link SysbenchStep} and {@link MytoolsStep} compose them.
 */
enum SysbenchOp {
  BEGIN, COMMIT,
  /** One point select by id. */
  POINT_SELECT,
  /** sysbench's {@code point_selects} (10) point selects by id on one table. */
  POINT_SELECTS,
  SIMPLE_RANGE, SUM_RANGE, ORDER_RANGE, DISTINCT_RANGE,
  /** {@code SELECT count(c)} over an id range (mytools' oltp_read_only_count). */
  COUNT_RANGE,
  /** select_random_points / select_random_ranges: k values in this client's slice, table 1. */
  RANDOM_POINTS, RANDOM_RANGES,
  /** mytools oltp_inlist_select: {@code SELECT c … WHERE id IN} random ids. */
  ID_IN_LIST,
  /** The same, with the ids table_size/2 + 1 … + points (--hot-points): always the same rows. */
  HOT_ID_IN_LIST,
  /** mytools oltp_points_covered, its four variants (pk: on id; si: on k; covered: only the index column). */
  POINTS_COVERED_PK, POINTS_NOTCOVERED_PK, POINTS_COVERED_SI, POINTS_NOTCOVERED_SI,
  /** mytools oltp_range_covered, its four variants. */
  RANGE_COVERED_PK, RANGE_NOTCOVERED_PK, RANGE_COVERED_SI, RANGE_NOTCOVERED_SI,
  /** mytools oltp_scan: a full scan whose filter matches no row (no network cost). */
  SCAN,
  INDEX_UPDATE, NON_INDEX_UPDATE,
  /** mytools oltp_inlist_update: {@code UPDATE … SET c=? WHERE id IN} random ids. */
  UPDATE_IN_LIST,
  DELETE_INSERT, INSERT, DELETE
}
