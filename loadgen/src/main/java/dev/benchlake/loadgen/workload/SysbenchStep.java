package dev.benchlake.loadgen.workload;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The sysbench-like steps, each named after the sysbench 1.0 script it follows. The SQL is
 * sysbench's (pgsql driver) with {@code N} the table number (uniform in 1..tables, drawn once per
 * query group as sysbench does), {@code id} drawn by {@code --rand-type} in 1..table_size, ranges
 * of {@code --range-size} ids:
 *
 * <table>
 * <caption>steps</caption>
 * <tr><th>step</th><th>sysbench script</th><th>one task</th></tr>
 * <tr><td>point-select</td><td>oltp_point_select</td><td>{@code SELECT c FROM sbtestN WHERE id=?}</td></tr>
 * <tr><td>simple-range</td><td>oltp_read_only, one query</td><td>{@code SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?}</td></tr>
 * <tr><td>sum-range</td><td>oltp_read_only, one query</td><td>{@code SELECT SUM(k) FROM sbtestN WHERE id BETWEEN ? AND ?}</td></tr>
 * <tr><td>order-range</td><td>oltp_read_only, one query</td><td>{@code SELECT c FROM sbtestN WHERE id BETWEEN ? AND ? ORDER BY c}</td></tr>
 * <tr><td>distinct-range</td><td>oltp_read_only, one query</td><td>{@code SELECT DISTINCT c FROM sbtestN WHERE id BETWEEN ? AND ? ORDER BY c}</td></tr>
 * <tr><td>random-points</td><td>select_random_points</td><td>{@code SELECT id, k, c, pad FROM sbtest1 WHERE k IN (?, … 10 values)}</td></tr>
 * <tr><td>random-ranges</td><td>select_random_ranges</td><td>{@code SELECT count(k) FROM sbtest1 WHERE k BETWEEN ? AND ? OR … (10 ranges of 5)}</td></tr>
 * <tr><td>update-index</td><td>oltp_update_index</td><td>{@code UPDATE sbtestN SET k=k+1 WHERE id=?}</td></tr>
 * <tr><td>update-non-index</td><td>oltp_update_non_index</td><td>{@code UPDATE sbtestN SET c=? WHERE id=?}</td></tr>
 * <tr><td>insert</td><td>oltp_insert</td><td>{@code INSERT INTO sbtestN (k, c, pad) VALUES (?, ?, ?)}</td></tr>
 * <tr><td>delete</td><td>oltp_delete</td><td>{@code DELETE FROM sbtestN WHERE id=?}</td></tr>
 * <tr><td>read-only</td><td>oltp_read_only</td><td>BEGIN; 10 point selects; simple, sum, order, distinct range; COMMIT</td></tr>
 * <tr><td>read-write</td><td>oltp_read_write</td><td>BEGIN; read-only's queries; update-index; update-non-index; DELETE + INSERT (id, k, c, pad) of one id; COMMIT</td></tr>
 * <tr><td>write-only</td><td>oltp_write_only</td><td>BEGIN; update-index; update-non-index; DELETE + INSERT; COMMIT</td></tr>
 * </table>
 *
 * <p>random-points and random-ranges give each client its own slice of {@code k} values
 * (table_size / clients wide), as sysbench gives each thread. BEGIN and COMMIT are sent as
 * statements, like sysbench does (one round trip each).
 */
public enum SysbenchStep {
  POINT_SELECT("point-select", SysbenchOp.POINT_SELECT),
  SIMPLE_RANGE("simple-range", SysbenchOp.SIMPLE_RANGE),
  SUM_RANGE("sum-range", SysbenchOp.SUM_RANGE),
  ORDER_RANGE("order-range", SysbenchOp.ORDER_RANGE),
  DISTINCT_RANGE("distinct-range", SysbenchOp.DISTINCT_RANGE),
  RANDOM_POINTS("random-points", SysbenchOp.RANDOM_POINTS),
  RANDOM_RANGES("random-ranges", SysbenchOp.RANDOM_RANGES),
  UPDATE_INDEX("update-index", SysbenchOp.INDEX_UPDATE),
  UPDATE_NON_INDEX("update-non-index", SysbenchOp.NON_INDEX_UPDATE),
  INSERT("insert", SysbenchOp.INSERT),
  DELETE("delete", SysbenchOp.DELETE),
  READ_ONLY("read-only", SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS, SysbenchOp.SIMPLE_RANGE,
      SysbenchOp.SUM_RANGE, SysbenchOp.ORDER_RANGE, SysbenchOp.DISTINCT_RANGE, SysbenchOp.COMMIT),
  READ_WRITE("read-write", SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS, SysbenchOp.SIMPLE_RANGE,
      SysbenchOp.SUM_RANGE, SysbenchOp.ORDER_RANGE, SysbenchOp.DISTINCT_RANGE, SysbenchOp.INDEX_UPDATE,
      SysbenchOp.NON_INDEX_UPDATE, SysbenchOp.DELETE_INSERT, SysbenchOp.COMMIT),
  WRITE_ONLY("write-only", SysbenchOp.BEGIN, SysbenchOp.INDEX_UPDATE, SysbenchOp.NON_INDEX_UPDATE,
      SysbenchOp.DELETE_INSERT, SysbenchOp.COMMIT);

  private final String stepName;
  private final List<SysbenchOp> ops;

  SysbenchStep(String stepName, SysbenchOp... ops) {
    this.stepName = stepName;
    this.ops = List.of(ops);
  }

  public String stepName() {
    return stepName;
  }

  /** This step with the run's options: {@code --range-size}, {@code --rand-type}, {@code --table-size}. */
  SysbenchSpec spec(int rangeSize, RandType randType, int tableSize) {
    return new SysbenchSpec(stepName, ops, rangeSize, SysbenchWorkload.RANDOM_POINTS, randType, tableSize, writes(),
        writes(), false);
  }

  List<SysbenchOp> ops() {
    return ops;
  }

  /** Whether the step changes data. */
  public boolean writes() {
    return ops.stream().anyMatch(op -> switch (op) {
      case INDEX_UPDATE, NON_INDEX_UPDATE, UPDATE_IN_LIST, DELETE_INSERT, INSERT, DELETE -> true;
      default -> false;
    });
  }

  public static Optional<SysbenchStep> byName(String name) {
    String wanted = name.toLowerCase(Locale.ROOT).replace('_', '-');
    return Arrays.stream(values()).filter(s -> s.stepName.equals(wanted)).findFirst();
  }

  public static List<String> names() {
    return Arrays.stream(values()).map(SysbenchStep::stepName).toList();
  }
}
