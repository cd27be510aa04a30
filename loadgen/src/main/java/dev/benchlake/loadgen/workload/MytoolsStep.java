package dev.benchlake.loadgen.workload;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A step of the PostgreSQL 11→16 sysbench version study (mdcallag/mytools,
 * {@code bench/sysbench.lua}): a test type of its {@code run.sh} at a range {@code R}, named as its
 * result files are, {@code <testType>_range=<R>} (e.g. {@code points-covered-pk_range=100}). A
 * {@code .pre} or {@code .warm} suffix on the test type runs the same SQL earlier in the sequence
 * (before any write: the study compares them with the later runs). The tables are sysbench's
 * ({@code id} primary key, secondary index {@code k_N} on {@code k}); {@code N} is a table drawn
 * uniformly per task, {@code ?×R} an IN list of R values, ids and k values drawn in
 * 1..table_size by {@code --rand-type} (the study: uniform). "R" in the second column says what the
 * range means for that test type.
 *
 * <table>
 * <caption>test types (one task = one sysbench event)</caption>
 * <tr><th>test type</th><th>R is</th><th>one task</th><th>what it measures</th></tr>
 * <tr><td>point-query</td><td>unused</td><td>{@code SELECT c FROM sbtestN WHERE id=?}</td><td>one primary-key lookup per round trip: per-statement overhead</td></tr>
 * <tr><td>random-points</td><td>points</td><td>{@code SELECT c FROM sbtestN WHERE id IN (?×R)}</td><td>R random primary-key lookups in one statement: index descents, buffer hits</td></tr>
 * <tr><td>hot-points</td><td>points</td><td>{@code SELECT c FROM sbtestN WHERE id IN (?×R)}</td><td>the same R ids (table_size/2 + 1 …) every time: lookups with no cache misses</td></tr>
 * <tr><td>points-covered-pk</td><td>points</td><td>{@code SELECT id FROM sbtestN WHERE id IN (?×R)}</td><td>lookups answered by the primary key index (index-only scan)</td></tr>
 * <tr><td>points-notcovered-pk</td><td>points</td><td>{@code SELECT id, c FROM sbtestN WHERE id IN (?×R)}</td><td>primary key lookups that also read the heap</td></tr>
 * <tr><td>points-covered-si</td><td>points</td><td>{@code SELECT k FROM sbtestN WHERE k IN (?×R)}</td><td>lookups answered by the secondary index k_N (index-only scan)</td></tr>
 * <tr><td>points-notcovered-si</td><td>points</td><td>{@code SELECT k, c FROM sbtestN WHERE k IN (?×R)}</td><td>secondary index lookups that also read the heap</td></tr>
 * <tr><td>range-covered-pk</td><td>width</td><td>{@code SELECT id FROM sbtestN WHERE id BETWEEN ? AND ?+R}</td><td>a short primary key range, index only</td></tr>
 * <tr><td>range-notcovered-pk</td><td>width</td><td>{@code SELECT id, c FROM sbtestN WHERE id BETWEEN ? AND ?+R}</td><td>a short primary key range that reads the heap (rows stored in id order)</td></tr>
 * <tr><td>range-covered-si</td><td>width</td><td>{@code SELECT k FROM sbtestN WHERE k BETWEEN ? AND ?+R}</td><td>a short secondary index range, index only</td></tr>
 * <tr><td>range-notcovered-si</td><td>width</td><td>{@code SELECT k, c FROM sbtestN WHERE k BETWEEN ? AND ?+R}</td><td>a secondary index range that reads the heap (rows scattered)</td></tr>
 * <tr><td>scan</td><td>unused</td><td>{@code SELECT * FROM sbtestN WHERE LENGTH(c) < 0}</td><td>a full scan that returns no row: sequential scan speed. One pass, not timed: every client scans every table once (client i from table i mod tables), without a warm-up; counted as the study counts it, in rows scanned per second (the step's {@code qps} in the manifest's step_metrics)</td></tr>
 * <tr><td>read-only</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; SELECT SUM(k) FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; SELECT DISTINCT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; COMMIT}</td><td>sysbench's oltp_read_only: a mix of lookups and range queries in a transaction</td></tr>
 * <tr><td>read-only-simple</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; COMMIT}</td><td>read-only with only the plain range query</td></tr>
 * <tr><td>read-only-sum</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT SUM(k) FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; COMMIT}</td><td>read-only with only the SUM range query: aggregation</td></tr>
 * <tr><td>read-only-order</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; COMMIT}</td><td>read-only with only the ORDER BY range query: sorting</td></tr>
 * <tr><td>read-only-distinct</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT DISTINCT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; COMMIT}</td><td>read-only with only the DISTINCT range query: sorting and de-duplication</td></tr>
 * <tr><td>read-only-count</td><td>range size</td><td>{@code SELECT count(c) FROM sbtestN WHERE id BETWEEN ? AND ?+R-1}</td><td>a COUNT over a range, no transaction (mytools' oltp_read_only_count, --skip-trx)</td></tr>
 * <tr><td>read-write</td><td>range size</td><td>{@code BEGIN; SELECT c FROM sbtestN WHERE id=? ×10; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; SELECT SUM(k) FROM sbtestN WHERE id BETWEEN ? AND ?+R-1; SELECT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; SELECT DISTINCT c FROM sbtestN WHERE id BETWEEN ? AND ?+R-1 ORDER BY c; UPDATE sbtestN SET k=k+1 WHERE id=?; UPDATE sbtestN SET c=? WHERE id=?; DELETE FROM sbtestN WHERE id=?; INSERT INTO sbtestN (id, k, c, pad) VALUES (?, ?, ?, ?); COMMIT}</td><td>sysbench's oltp_read_write: read-only plus four writes and the commit</td></tr>
 * <tr><td>write-only</td><td>unused</td><td>{@code BEGIN; UPDATE sbtestN SET k=k+1 WHERE id=?; UPDATE sbtestN SET c=? WHERE id=?; DELETE FROM sbtestN WHERE id=?; INSERT INTO sbtestN (id, k, c, pad) VALUES (?, ?, ?, ?); COMMIT}</td><td>sysbench's oltp_write_only: writes and commit (WAL flush) cost</td></tr>
 * <tr><td>update-inlist</td><td>unused</td><td>{@code UPDATE sbtestN SET c=? WHERE id IN (?×10)}</td><td>10 random rows updated in one statement (mytools' oltp_inlist_update)</td></tr>
 * <tr><td>update-index</td><td>unused</td><td>{@code UPDATE sbtestN SET k=k+1 WHERE id=?}</td><td>an update of an indexed column: no HOT update, index maintenance</td></tr>
 * <tr><td>update-nonindex</td><td>unused</td><td>{@code UPDATE sbtestN SET c=? WHERE id=?}</td><td>an update of a column no index covers: HOT updates when the page has room</td></tr>
 * <tr><td>update-one</td><td>unused</td><td>{@code UPDATE sbtestN SET c=? WHERE id=?}</td><td>update-nonindex with every id = 1 (the study's --table-size=1): one hot row per table, lock contention and version chains</td></tr>
 * <tr><td>update-zipf</td><td>unused</td><td>{@code UPDATE sbtestN SET c=? WHERE id=?}</td><td>update-nonindex with ids drawn zipfian (exponent 0.8, sysbench's): a skewed working set</td></tr>
 * <tr><td>delete</td><td>unused</td><td>{@code DELETE FROM sbtestN WHERE id=?}</td><td>deletes by primary key (later ones often find no row, as in sysbench)</td></tr>
 * <tr><td>insert</td><td>unused</td><td>{@code INSERT INTO sbtestN (k, c, pad) VALUES (?, ?, ?)}</td><td>inserts with SERIAL ids: the right edge of the primary key</td></tr>
 * </table>
 *
 * <p>{@link #STUDY} is the study's sequence (its {@code all_small.sh}, plus the
 * {@code read-only-*} variants at 1000 of its later versions), 48 steps; {@link #STUDY_2023} is the
 * 43 that all_small.sh ran in 2023 (mdcallag/mytools 4c80133a, 2023-02-25: before the
 * {@code read-only-{simple,sum,order,distinct,count}_range=1000} steps): the warm step, the
 * {@code .pre} queries, the writes, then the same queries again. Writes run before the later reads,
 * as in the study: the later reads see the updated, deleted-and-reinserted rows, after the vacuum
 * that follows read-write at 100 ({@link #vacuumAfter()}). Durations follow
 * all_small.sh: the write duration for the updates, read-write, delete and insert, the read duration
 * for everything else (write-only included, as all_small.sh does).
 *
 * @param type the test type
 * @param suffix {@code ""}, {@code ".pre"} or {@code ".warm"}
 * @param range R
 */
public record MytoolsStep(TestType type, String suffix, int range) {
  /** {@code --steps mytools}: the whole sequence. */
  public static final String SET_NAME = "mytools";
  /** {@code --steps mytools-2023}: the sequence as the 2023 study ran it. */
  public static final String SET_2023 = "mytools-2023";
  private static final Pattern NAME = Pattern.compile("([a-z-]+)((?:\\.pre|\\.warm)?)_range=([0-9]{1,7})");

  /** The study's sequence, in its order. */
  public static final List<MytoolsStep> STUDY = study();

  /** The 2023 sequence: {@link #STUDY} without the read-only variants at 1000 that mytools added later. */
  public static final List<MytoolsStep> STUDY_2023 = STUDY.stream().filter(s -> !s.addedAfter2023()).toList();

  /** What R means for a test type. */
  public enum RangeUse { UNUSED, POINTS, WIDTH, RANGE_SIZE }

  /** The test types of the study's run.sh that this catalogue runs; see the class comment for their SQL. */
  public enum TestType {
    POINT_QUERY("point-query", RangeUse.UNUSED, false, SysbenchOp.POINT_SELECT),
    RANDOM_POINTS("random-points", RangeUse.POINTS, false, SysbenchOp.ID_IN_LIST),
    HOT_POINTS("hot-points", RangeUse.POINTS, false, SysbenchOp.HOT_ID_IN_LIST),
    POINTS_COVERED_PK("points-covered-pk", RangeUse.POINTS, false, SysbenchOp.POINTS_COVERED_PK),
    POINTS_NOTCOVERED_PK("points-notcovered-pk", RangeUse.POINTS, false, SysbenchOp.POINTS_NOTCOVERED_PK),
    POINTS_COVERED_SI("points-covered-si", RangeUse.POINTS, false, SysbenchOp.POINTS_COVERED_SI),
    POINTS_NOTCOVERED_SI("points-notcovered-si", RangeUse.POINTS, false, SysbenchOp.POINTS_NOTCOVERED_SI),
    RANGE_COVERED_PK("range-covered-pk", RangeUse.WIDTH, false, SysbenchOp.RANGE_COVERED_PK),
    RANGE_NOTCOVERED_PK("range-notcovered-pk", RangeUse.WIDTH, false, SysbenchOp.RANGE_NOTCOVERED_PK),
    RANGE_COVERED_SI("range-covered-si", RangeUse.WIDTH, false, SysbenchOp.RANGE_COVERED_SI),
    RANGE_NOTCOVERED_SI("range-notcovered-si", RangeUse.WIDTH, false, SysbenchOp.RANGE_NOTCOVERED_SI),
    SCAN("scan", RangeUse.UNUSED, false, SysbenchOp.SCAN),
    READ_ONLY("read-only", RangeUse.RANGE_SIZE, false, SysbenchStep.READ_ONLY.ops()),
    READ_ONLY_SIMPLE("read-only-simple", RangeUse.RANGE_SIZE, false, SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS,
        SysbenchOp.SIMPLE_RANGE, SysbenchOp.COMMIT),
    READ_ONLY_SUM("read-only-sum", RangeUse.RANGE_SIZE, false, SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS,
        SysbenchOp.SUM_RANGE, SysbenchOp.COMMIT),
    READ_ONLY_ORDER("read-only-order", RangeUse.RANGE_SIZE, false, SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS,
        SysbenchOp.ORDER_RANGE, SysbenchOp.COMMIT),
    READ_ONLY_DISTINCT("read-only-distinct", RangeUse.RANGE_SIZE, false, SysbenchOp.BEGIN, SysbenchOp.POINT_SELECTS,
        SysbenchOp.DISTINCT_RANGE, SysbenchOp.COMMIT),
    READ_ONLY_COUNT("read-only-count", RangeUse.RANGE_SIZE, false, SysbenchOp.COUNT_RANGE),
    READ_WRITE("read-write", RangeUse.RANGE_SIZE, true, SysbenchStep.READ_WRITE.ops()),
    // all_small.sh runs write-only for the read duration.
    WRITE_ONLY("write-only", RangeUse.UNUSED, false, SysbenchStep.WRITE_ONLY.ops()),
    UPDATE_INLIST("update-inlist", RangeUse.UNUSED, true, SysbenchOp.UPDATE_IN_LIST),
    UPDATE_INDEX("update-index", RangeUse.UNUSED, true, SysbenchOp.INDEX_UPDATE),
    UPDATE_NONINDEX("update-nonindex", RangeUse.UNUSED, true, SysbenchOp.NON_INDEX_UPDATE),
    UPDATE_ONE("update-one", RangeUse.UNUSED, true, SysbenchOp.NON_INDEX_UPDATE),
    UPDATE_ZIPF("update-zipf", RangeUse.UNUSED, true, SysbenchOp.NON_INDEX_UPDATE),
    DELETE("delete", RangeUse.UNUSED, true, SysbenchOp.DELETE),
    INSERT("insert", RangeUse.UNUSED, true, SysbenchOp.INSERT);

    private final String id;
    private final RangeUse rangeUse;
    private final boolean writeDuration;
    private final List<SysbenchOp> ops;

    TestType(String id, RangeUse rangeUse, boolean writeDuration, SysbenchOp... ops) {
      this(id, rangeUse, writeDuration, List.of(ops));
    }

    TestType(String id, RangeUse rangeUse, boolean writeDuration, List<SysbenchOp> ops) {
      this.id = id;
      this.rangeUse = rangeUse;
      this.writeDuration = writeDuration;
      this.ops = List.copyOf(ops);
    }

    /** Its name in run.sh and in the step names. */
    public String id() {
      return id;
    }

    public RangeUse rangeUse() {
      return rangeUse;
    }

    List<SysbenchOp> ops() {
      return ops;
    }

    static Optional<TestType> byId(String id) {
      return Arrays.stream(values()).filter(t -> t.id.equals(id)).findFirst();
    }
  }

  public MytoolsStep {
    if (!suffix.isEmpty() && !suffix.equals(".pre") && !suffix.equals(".warm")) {
      throw new IllegalArgumentException("suffix " + suffix);
    }
    if (range < 1) {
      throw new IllegalArgumentException("range " + range);
    }
  }

  /** {@code <testType><suffix>_range=<R>}. */
  public String name() {
    return type.id + suffix + "_range=" + range;
  }

  /** Whether it runs for the write duration (as all_small.sh's writesecs/insertsecs). */
  public boolean usesWriteDuration() {
    return type.writeDuration;
  }

  /**
   * Whether the study's "postwrite" follows this step: after point-query.warm (the load's cleanup)
   * and after read-write at 100 (the writes' cleanup), run.sh vacuums and analyzes every table and
   * checkpoints. Its sleep afterwards (60 s and more) is left out: a fixed pause is not a
   * maintenance state, and the table-health snapshots show what the vacuum left.
   */
  public boolean vacuumAfter() {
    return (type == TestType.POINT_QUERY && suffix.equals(".warm"))
        || (type == TestType.READ_WRITE && suffix.isEmpty() && range == 100);
  }

  /** Whether mytools added this step to all_small.sh after the 2023 study (the read-only variants at 1000). */
  private boolean addedAfter2023() {
    return switch (type) {
      case READ_ONLY_SIMPLE, READ_ONLY_SUM, READ_ONLY_ORDER, READ_ONLY_DISTINCT, READ_ONLY_COUNT -> true;
      default -> false;
    };
  }

  /** A step by its name; any test type at any R, not only the study's. */
  public static Optional<MytoolsStep> byName(String name) {
    Matcher m = NAME.matcher(name.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      return Optional.empty();
    }
    int range = Integer.parseInt(m.group(3));
    if (range < 1) {
      throw new BadInputException("step '" + name + "': the range must be at least 1");
    }
    return TestType.byId(m.group(1)).map(t -> new MytoolsStep(t, m.group(2), range));
  }

  /** Whether {@code name} looks like a mytools step name ({@code …_range=R}), known or not. */
  public static boolean looksLikeOne(String name) {
    return name.contains("_range=");
  }

  /** This step with the run's options. */
  SysbenchSpec spec(RandType randType, int tableSize) {
    int points = switch (type.rangeUse) {
      case POINTS, WIDTH -> range;
      default -> 10; // the Lua scripts' random_points default (update-inlist)
    };
    RandType ids = type == TestType.UPDATE_ZIPF ? RandType.ZIPFIAN : randType;
    int idMax = type == TestType.UPDATE_ONE ? 1 : tableSize;
    boolean writes = type.ops.stream().anyMatch(op -> switch (op) {
      case INDEX_UPDATE, NON_INDEX_UPDATE, UPDATE_IN_LIST, DELETE_INSERT, INSERT, DELETE -> true;
      default -> false;
    });
    return new SysbenchSpec(name(), type.ops, range, points, ids, idMax, writes, usesWriteDuration(), vacuumAfter());
  }

  private static List<MytoolsStep> study() {
    List<MytoolsStep> s = new ArrayList<>();
    s.add(new MytoolsStep(TestType.POINT_QUERY, ".warm", 100));
    s.add(new MytoolsStep(TestType.POINT_QUERY, ".pre", 100));
    for (int r : new int[] {10, 100, 1000}) {
      s.add(new MytoolsStep(TestType.RANDOM_POINTS, ".pre", r));
    }
    for (int r : new int[] {10, 100, 10000}) {
      s.add(new MytoolsStep(TestType.READ_ONLY, ".pre", r));
    }
    for (TestType t : List.of(TestType.POINTS_COVERED_PK, TestType.POINTS_NOTCOVERED_PK, TestType.POINTS_COVERED_SI,
        TestType.POINTS_NOTCOVERED_SI, TestType.RANGE_COVERED_PK, TestType.RANGE_NOTCOVERED_PK,
        TestType.RANGE_COVERED_SI, TestType.RANGE_NOTCOVERED_SI)) {
      s.add(new MytoolsStep(t, ".pre", 100));
    }
    for (TestType t : List.of(TestType.UPDATE_INLIST, TestType.UPDATE_INDEX, TestType.UPDATE_NONINDEX,
        TestType.UPDATE_ONE, TestType.UPDATE_ZIPF)) {
      s.add(new MytoolsStep(t, "", 100));
    }
    s.add(new MytoolsStep(TestType.WRITE_ONLY, "", 10000));
    s.add(new MytoolsStep(TestType.READ_WRITE, "", 10));
    s.add(new MytoolsStep(TestType.READ_WRITE, "", 100));
    for (int r : new int[] {10, 100, 10000}) {
      s.add(new MytoolsStep(TestType.READ_ONLY, "", r));
    }
    for (TestType t : List.of(TestType.READ_ONLY_SIMPLE, TestType.READ_ONLY_SUM, TestType.READ_ONLY_ORDER,
        TestType.READ_ONLY_DISTINCT, TestType.READ_ONLY_COUNT)) {
      s.add(new MytoolsStep(t, "", 1000));
    }
    s.add(new MytoolsStep(TestType.POINT_QUERY, "", 100));
    for (int r : new int[] {10, 100, 1000}) {
      s.add(new MytoolsStep(TestType.RANDOM_POINTS, "", r));
    }
    s.add(new MytoolsStep(TestType.HOT_POINTS, "", 100));
    for (TestType t : List.of(TestType.POINTS_COVERED_PK, TestType.POINTS_NOTCOVERED_PK, TestType.POINTS_COVERED_SI,
        TestType.POINTS_NOTCOVERED_SI, TestType.RANGE_COVERED_PK, TestType.RANGE_NOTCOVERED_PK,
        TestType.RANGE_COVERED_SI, TestType.RANGE_NOTCOVERED_SI, TestType.SCAN, TestType.DELETE, TestType.INSERT)) {
      s.add(new MytoolsStep(t, "", 100));
    }
    return List.copyOf(s);
  }
}
