package dev.benchlake.loadgen.workload;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * sysbench's OLTP workload on {@code sbtest1..sbtestN} tables, laid out as sysbench's
 * {@code oltp_common.lua} creates them for PostgreSQL:
 * <pre>
 *   CREATE TABLE sbtestN(id SERIAL, k INTEGER DEFAULT '0' NOT NULL, c CHAR(120) DEFAULT '' NOT NULL,
 *                        pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id));
 *   CREATE INDEX k_N ON sbtestN(k);
 * </pre>
 * with ids 1..table_size, {@code k} drawn by {@code --rand-type} in 1..table_size, {@code c} ten
 * and {@code pad} five dash-separated groups of 11 random digits. Loaded with COPY (sysbench uses
 * multi-row INSERTs), then the id sequence is moved past the data and the table vacuumed and
 * analyzed. The steps are {@link SysbenchStep}s and {@link MytoolsStep}s ({@link SysbenchSteps}
 * resolves their names), each a list of {@link SysbenchOp}s with its own parameters; a table can be
 * prepared by {@code sysbench prepare} instead and used with {@code --skip-load}.
 */
public final class SysbenchWorkload implements Workload {
  public static final String NAME = "sysbench";
  static final int POINT_SELECTS = 10;
  static final int RANDOM_POINTS = 10;
  static final int RANDOM_RANGES = 10;
  static final int RANDOM_RANGES_DELTA = 5;
  private static final String C_TEMPLATE = template(10);
  private static final String PAD_TEMPLATE = template(5);

  private final List<SysbenchSpec> steps;
  private final int tables;
  private final int tableSize;
  private final int rangeSize;
  private final RandType randType;

  /** @param steps the steps, resolved from their names with the run's options */
  public SysbenchWorkload(SysbenchSteps steps, int tables, int tableSize, int rangeSize, RandType randType) {
    this.steps = steps.specs();
    this.tables = tables;
    this.tableSize = tableSize;
    this.rangeSize = rangeSize;
    this.randType = randType;
  }

  private static String template(int groups) {
    return String.join("-", java.util.Collections.nCopies(groups, "###########"));
  }

  /**
   * SQL of each statement: {@code {t}} is the table number, {@code {in}} an IN list of the step's
   * {@link SysbenchSpec#points()} placeholders; the select_random_* ones use table 1.
   */
  enum Query {
    POINT("SELECT c FROM sbtest{t} WHERE id=?"),
    SIMPLE_RANGE("SELECT c FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
    SUM_RANGE("SELECT SUM(k) FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
    ORDER_RANGE("SELECT c FROM sbtest{t} WHERE id BETWEEN ? AND ? ORDER BY c"),
    DISTINCT_RANGE("SELECT DISTINCT c FROM sbtest{t} WHERE id BETWEEN ? AND ? ORDER BY c"),
    COUNT_RANGE("SELECT count(c) FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
    INDEX_UPDATE("UPDATE sbtest{t} SET k=k+1 WHERE id=?"),
    NON_INDEX_UPDATE("UPDATE sbtest{t} SET c=? WHERE id=?"),
    UPDATE_IN_LIST("UPDATE sbtest{t} SET c=? WHERE id IN ({in})"),
    DELETE("DELETE FROM sbtest{t} WHERE id=?"),
    INSERT_WITH_ID("INSERT INTO sbtest{t} (id, k, c, pad) VALUES (?, ?, ?, ?)"),
    INSERT("INSERT INTO sbtest{t} (k, c, pad) VALUES (?, ?, ?)"),
    RANDOM_POINTS("SELECT id, k, c, pad FROM sbtest1 WHERE k IN ({in})"),
    RANDOM_RANGES("SELECT count(k) FROM sbtest1 WHERE "
        + String.join(" OR ", java.util.Collections.nCopies(SysbenchWorkload.RANDOM_RANGES, "k BETWEEN ? AND ?"))),
    ID_IN_LIST("SELECT c FROM sbtest{t} WHERE id IN ({in})"),
    POINTS_COVERED_PK("SELECT id FROM sbtest{t} WHERE id IN ({in})"),
    POINTS_NOTCOVERED_PK("SELECT id, c FROM sbtest{t} WHERE id IN ({in})"),
    POINTS_COVERED_SI("SELECT k FROM sbtest{t} WHERE k IN ({in})"),
    POINTS_NOTCOVERED_SI("SELECT k, c FROM sbtest{t} WHERE k IN ({in})"),
    RANGE_COVERED_PK("SELECT id FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
    RANGE_NOTCOVERED_PK("SELECT id, c FROM sbtest{t} WHERE id BETWEEN ? AND ?"),
    RANGE_COVERED_SI("SELECT k FROM sbtest{t} WHERE k BETWEEN ? AND ?"),
    RANGE_NOTCOVERED_SI("SELECT k, c FROM sbtest{t} WHERE k BETWEEN ? AND ?"),
    SCAN("SELECT * FROM sbtest{t} WHERE LENGTH(c) < 0"),
    BEGIN("BEGIN"),
    COMMIT("COMMIT");

    private final String template;

    Query(String template) {
      this.template = template;
    }

    boolean perTable() {
      return template.contains("{t}");
    }

    /** The statement for table {@code table} (1-based) with IN lists of {@code points} values. */
    String sql(int table, int points) {
      return template.replace("{t}", Integer.toString(table))
          .replace("{in}", String.join(", ", java.util.Collections.nCopies(Math.max(1, points), "?")));
    }
  }

  private static List<Query> queriesOf(SysbenchOp op) {
    return switch (op) {
      case BEGIN -> List.of(Query.BEGIN);
      case COMMIT -> List.of(Query.COMMIT);
      case POINT_SELECT, POINT_SELECTS -> List.of(Query.POINT);
      case SIMPLE_RANGE -> List.of(Query.SIMPLE_RANGE);
      case SUM_RANGE -> List.of(Query.SUM_RANGE);
      case ORDER_RANGE -> List.of(Query.ORDER_RANGE);
      case DISTINCT_RANGE -> List.of(Query.DISTINCT_RANGE);
      case COUNT_RANGE -> List.of(Query.COUNT_RANGE);
      case RANDOM_POINTS -> List.of(Query.RANDOM_POINTS);
      case RANDOM_RANGES -> List.of(Query.RANDOM_RANGES);
      case ID_IN_LIST, HOT_ID_IN_LIST -> List.of(Query.ID_IN_LIST);
      case POINTS_COVERED_PK -> List.of(Query.POINTS_COVERED_PK);
      case POINTS_NOTCOVERED_PK -> List.of(Query.POINTS_NOTCOVERED_PK);
      case POINTS_COVERED_SI -> List.of(Query.POINTS_COVERED_SI);
      case POINTS_NOTCOVERED_SI -> List.of(Query.POINTS_NOTCOVERED_SI);
      case RANGE_COVERED_PK -> List.of(Query.RANGE_COVERED_PK);
      case RANGE_NOTCOVERED_PK -> List.of(Query.RANGE_NOTCOVERED_PK);
      case RANGE_COVERED_SI -> List.of(Query.RANGE_COVERED_SI);
      case RANGE_NOTCOVERED_SI -> List.of(Query.RANGE_NOTCOVERED_SI);
      case SCAN -> List.of(Query.SCAN);
      case INDEX_UPDATE -> List.of(Query.INDEX_UPDATE);
      case NON_INDEX_UPDATE -> List.of(Query.NON_INDEX_UPDATE);
      case UPDATE_IN_LIST -> List.of(Query.UPDATE_IN_LIST);
      case DELETE_INSERT -> List.of(Query.DELETE, Query.INSERT_WITH_ID);
      case INSERT -> List.of(Query.INSERT);
      case DELETE -> List.of(Query.DELETE);
    };
  }

  /** How many times one task executes {@code op}'s statements. */
  private static int executionsOf(SysbenchOp op) {
    return op == SysbenchOp.POINT_SELECTS ? POINT_SELECTS : 1;
  }

  /**
   * The statements one task of {@code spec} executes, in order, on table {@code table}: what the
   * step sends, for checking against its documented shape.
   */
  static List<String> statements(SysbenchSpec spec, int table) {
    List<String> result = new ArrayList<>();
    for (SysbenchOp op : spec.ops()) {
      for (int i = 0; i < executionsOf(op); i++) {
        for (Query q : queriesOf(op)) {
          result.add(q.sql(q.perTable() ? table : 1, spec.points()));
        }
      }
    }
    return result;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Step> steps() {
    List<Step> result = new ArrayList<>();
    for (SysbenchSpec step : steps) {
      result.add(new SysbenchStepRunner(step));
    }
    return result;
  }

  @Override
  public List<String> tables() {
    List<String> names = new java.util.ArrayList<>();
    for (int t = 1; t <= tables; t++) {
      names.add("sbtest" + t);
    }
    return names;
  }

  @Override
  public SortedMap<String, Object> parameters() {
    SortedMap<String, Object> p = new TreeMap<>();
    p.put("tables", tables);
    p.put("table_size", tableSize);
    p.put("range_size", rangeSize);
    p.put("rand_type", randType.id());
    p.put("point_selects", POINT_SELECTS);
    p.put("random_points", RANDOM_POINTS);
    p.put("number_of_ranges", RANDOM_RANGES);
    p.put("delta", RANDOM_RANGES_DELTA);
    String vacuumed = String.join(",", steps.stream().filter(SysbenchSpec::vacuumAfter).map(SysbenchSpec::name).toList());
    if (!vacuumed.isEmpty()) {
      p.put("vacuum_checkpoint_after", vacuumed);
    }
    return p;
  }

  @Override
  public void load(Connection connection, long seed, Consumer<String> progress) throws SQLException {
    SplittableRandom random = new SplittableRandom(seed);
    for (int t = 1; t <= tables; t++) {
      progress.accept("loading sbtest" + t + ": " + tableSize + " rows (COPY)");
      Sql.execute(connection, "DROP TABLE IF EXISTS sbtest" + t,
          "CREATE TABLE sbtest" + t + "(id SERIAL, k INTEGER DEFAULT '0' NOT NULL, "
              + "c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))");
      try (CopyLoader copy = new CopyLoader(connection, "COPY sbtest" + t + "(id, k, c, pad) FROM STDIN")) {
        for (int id = 1; id <= tableSize; id++) {
          StringBuilder row = copy.row().append(id).append('\t').append(randType.next(random, 1, tableSize)).append('\t');
          randomDigits(C_TEMPLATE, random, row).append('\t');
          randomDigits(PAD_TEMPLATE, random, row);
          copy.endRow();
        }
        copy.finish();
      }
      Sql.execute(connection, "CREATE INDEX k_" + t + " ON sbtest" + t + "(k)",
          "SELECT setval(pg_get_serial_sequence('sbtest" + t + "', 'id'), " + Math.max(1, tableSize) + ")",
          // PostgreSQL 15+ flushes a backend's statistics at most once a second: without this the
          // COPY's inserts land after VACUUM's count and n_live_tup reads twice the rows.
          "DO $$ BEGIN IF current_setting('server_version_num')::int >= 150000 THEN"
              + " PERFORM pg_stat_force_next_flush(); END IF; END $$",
          "VACUUM ANALYZE sbtest" + t);
    }
  }

  @Override
  public void verifyLoaded(Connection connection) throws SQLException {
    for (int t = 1; t <= tables; t++) {
      Sql.requireTable(connection, "sbtest" + t, 1);
    }
  }

  /** sysbench's {@code sb_rand_str}: every {@code #} becomes a random digit. */
  static StringBuilder randomDigits(String template, SplittableRandom random, StringBuilder out) {
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      out.append(c == '#' ? (char) ('0' + random.nextInt(10)) : c);
    }
    return out;
  }

  private final class SysbenchStepRunner implements Step {
    private final SysbenchSpec step;

    SysbenchStepRunner(SysbenchSpec step) {
      this.step = step;
    }

    @Override
    public String name() {
      return step.name();
    }

    @Override
    public boolean usesWriteDuration() {
      return step.writeDuration();
    }

    /** scan: one pass, every client scanning every table once (as the study counts it; see {@link MytoolsStep}). */
    @Override
    public java.util.OptionalInt tasksPerClient() {
      return step.ops().contains(SysbenchOp.SCAN) ? java.util.OptionalInt.of(tables) : java.util.OptionalInt.empty();
    }

    /** scan: a task scans one whole table, counted as the study does, table_size rows. */
    @Override
    public java.util.OptionalLong rowsPerTask() {
      return step.ops().contains(SysbenchOp.SCAN) ? java.util.OptionalLong.of(tableSize) : java.util.OptionalLong.empty();
    }

    @Override
    public void afterTasks(Connection connection, Consumer<String> progress) throws SQLException {
      if (!step.vacuumAfter()) {
        return;
      }
      progress.accept("after " + step.name() + ": VACUUM (ANALYZE) of " + tables + " tables, CHECKPOINT");
      for (int t = 1; t <= tables; t++) {
        Sql.execute(connection, "VACUUM (ANALYZE) sbtest" + t);
      }
      try {
        Sql.execute(connection, "CHECKPOINT");
      } catch (SQLException e) {
        // 42501: a user without the right to checkpoint (any non-superuser before PostgreSQL 15).
        if (!"42501".equals(e.getSQLState())) {
          throw e;
        }
        progress.accept("CHECKPOINT skipped: " + e.getMessage());
      }
    }

    @Override
    public TaskRunner open(Connection connection, int clientId, int clients) throws SQLException {
      Runner runner = new Runner(step, clientId, clients);
      try {
        for (SysbenchOp op : step.ops()) {
          for (Query q : queriesOf(op)) {
            runner.prepare(connection, q);
          }
        }
      } catch (SQLException | RuntimeException e) {
        runner.close();
        throw e;
      }
      return runner;
    }
  }

  private final class Runner implements TaskRunner {
    private final SysbenchSpec step;
    private final Map<Query, PreparedStatement[]> statements = new EnumMap<>(Query.class);
    private final StringBuilder text = new StringBuilder(128);
    /** select_random_*: this client's slice of k values, as sysbench gives each thread. */
    private final long sliceMin;
    private final long sliceMax;
    /** scan: this client's first table; its k-th scan reads table (first + k) mod tables, so it reads each once. */
    private final int firstScanTable;
    private int scans;

    Runner(SysbenchSpec step, int clientId, int clients) {
      this.step = step;
      double sliceLength = (double) tableSize / Math.max(1, clients);
      this.sliceMin = (long) (sliceLength * clientId);
      this.sliceMax = (long) (sliceLength * clientId + sliceLength);
      this.firstScanTable = clientId % tables;
    }

    void prepare(Connection connection, Query query) throws SQLException {
      if (statements.containsKey(query)) {
        return;
      }
      int n = query.perTable() ? tables : 1;
      PreparedStatement[] prepared = new PreparedStatement[n];
      statements.put(query, prepared);
      for (int t = 0; t < n; t++) {
        prepared[t] = connection.prepareStatement(query.sql(t + 1, step.points()));
      }
    }

    private PreparedStatement statement(Query query, int tableIndex) {
      return statements.get(query)[query.perTable() ? tableIndex : 0];
    }

    private int table(SplittableRandom random) {
      return tables == 1 ? 0 : random.nextInt(tables);
    }

    private int id(SplittableRandom random) {
      return (int) step.randType().next(random, 1, step.idMax());
    }

    @Override
    public void run(int task, SplittableRandom random) throws SQLException {
      for (SysbenchOp op : step.ops()) {
        switch (op) {
          case BEGIN -> statement(Query.BEGIN, 0).execute();
          case COMMIT -> statement(Query.COMMIT, 0).execute();
          case POINT_SELECT -> pointSelects(random, 1);
          case POINT_SELECTS -> pointSelects(random, POINT_SELECTS);
          case SIMPLE_RANGE -> range(Query.SIMPLE_RANGE, random, step.rangeSize() - 1);
          case SUM_RANGE -> range(Query.SUM_RANGE, random, step.rangeSize() - 1);
          case ORDER_RANGE -> range(Query.ORDER_RANGE, random, step.rangeSize() - 1);
          case DISTINCT_RANGE -> range(Query.DISTINCT_RANGE, random, step.rangeSize() - 1);
          case COUNT_RANGE -> range(Query.COUNT_RANGE, random, step.rangeSize() - 1);
          // oltp_range_covered: min .. min + random_points (one more row than the points).
          case RANGE_COVERED_PK -> range(Query.RANGE_COVERED_PK, random, step.points());
          case RANGE_NOTCOVERED_PK -> range(Query.RANGE_NOTCOVERED_PK, random, step.points());
          case RANGE_COVERED_SI -> range(Query.RANGE_COVERED_SI, random, step.points());
          case RANGE_NOTCOVERED_SI -> range(Query.RANGE_NOTCOVERED_SI, random, step.points());
          case ID_IN_LIST -> inList(Query.ID_IN_LIST, random);
          case POINTS_COVERED_PK -> inList(Query.POINTS_COVERED_PK, random);
          case POINTS_NOTCOVERED_PK -> inList(Query.POINTS_NOTCOVERED_PK, random);
          case POINTS_COVERED_SI -> inList(Query.POINTS_COVERED_SI, random);
          case POINTS_NOTCOVERED_SI -> inList(Query.POINTS_NOTCOVERED_SI, random);
          case HOT_ID_IN_LIST -> hotInList(random);
          case SCAN -> Sql.consume(statement(Query.SCAN, (firstScanTable + scans++) % tables));
          case RANDOM_POINTS -> randomPoints(random);
          case RANDOM_RANGES -> randomRanges(random);
          case INDEX_UPDATE -> {
            PreparedStatement ps = statement(Query.INDEX_UPDATE, table(random));
            ps.setInt(1, id(random));
            ps.executeUpdate();
          }
          case NON_INDEX_UPDATE -> {
            PreparedStatement ps = statement(Query.NON_INDEX_UPDATE, table(random));
            ps.setString(1, digits(C_TEMPLATE, random));
            ps.setInt(2, id(random));
            ps.executeUpdate();
          }
          case UPDATE_IN_LIST -> {
            PreparedStatement ps = statement(Query.UPDATE_IN_LIST, table(random));
            ps.setString(1, digits(C_TEMPLATE, random));
            for (int i = 0; i < step.points(); i++) {
              ps.setInt(i + 2, id(random));
            }
            ps.executeUpdate();
          }
          case DELETE_INSERT -> deleteInsert(random);
          case INSERT -> {
            PreparedStatement ps = statement(Query.INSERT, table(random));
            ps.setInt(1, id(random));
            ps.setString(2, digits(C_TEMPLATE, random));
            ps.setString(3, digits(PAD_TEMPLATE, random));
            ps.executeUpdate();
          }
          case DELETE -> {
            PreparedStatement ps = statement(Query.DELETE, table(random));
            ps.setInt(1, id(random));
            ps.executeUpdate();
          }
        }
      }
    }

    private void pointSelects(SplittableRandom random, int count) throws SQLException {
      PreparedStatement ps = statement(Query.POINT, table(random));
      for (int i = 0; i < count; i++) {
        ps.setInt(1, id(random));
        Sql.consume(ps);
      }
    }

    /** {@code BETWEEN from AND from + width}. */
    private void range(Query query, SplittableRandom random, int width) throws SQLException {
      PreparedStatement ps = statement(query, table(random));
      int from = id(random);
      ps.setInt(1, from);
      ps.setInt(2, from + width);
      Sql.consume(ps);
    }

    private void inList(Query query, SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(query, table(random));
      for (int i = 1; i <= step.points(); i++) {
        ps.setInt(i, id(random));
      }
      Sql.consume(ps);
    }

    /** --hot-points: the ids just above table_size / 2, the same rows every time. */
    private void hotInList(SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(Query.ID_IN_LIST, table(random));
      int hotKey = tableSize / 2;
      for (int i = 1; i <= step.points(); i++) {
        ps.setInt(i, hotKey + i);
      }
      Sql.consume(ps);
    }

    private void randomPoints(SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(Query.RANDOM_POINTS, 0);
      for (int i = 1; i <= step.points(); i++) {
        ps.setInt(i, (int) step.randType().next(random, sliceMin, sliceMax));
      }
      Sql.consume(ps);
    }

    private void randomRanges(SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(Query.RANDOM_RANGES, 0);
      for (int i = 0; i < RANDOM_RANGES; i++) {
        int from = (int) step.randType().next(random, sliceMin, sliceMax);
        ps.setInt(2 * i + 1, from);
        ps.setInt(2 * i + 2, from + RANDOM_RANGES_DELTA);
      }
      Sql.consume(ps);
    }

    private void deleteInsert(SplittableRandom random) throws SQLException {
      int t = table(random);
      int id = id(random);
      int k = id(random);
      PreparedStatement delete = statement(Query.DELETE, t);
      delete.setInt(1, id);
      delete.executeUpdate();
      PreparedStatement insert = statement(Query.INSERT_WITH_ID, t);
      insert.setInt(1, id);
      insert.setInt(2, k);
      insert.setString(3, digits(C_TEMPLATE, random));
      insert.setString(4, digits(PAD_TEMPLATE, random));
      insert.executeUpdate();
    }

    private String digits(String template, SplittableRandom random) {
      text.setLength(0);
      return randomDigits(template, random, text).toString();
    }

    @Override
    public void close() {
      for (PreparedStatement[] prepared : statements.values()) {
        Sql.closeQuietly(prepared);
      }
    }
  }
}
