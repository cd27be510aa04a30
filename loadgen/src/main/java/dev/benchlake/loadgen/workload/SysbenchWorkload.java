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
 * analyzed. The steps are {@link SysbenchStep}s; a table can be prepared by {@code sysbench
 * prepare} instead and used with {@code --skip-load}.
 */
public final class SysbenchWorkload implements Workload {
  public static final String NAME = "sysbench";
  static final int POINT_SELECTS = 10;
  static final int RANDOM_POINTS = 10;
  static final int RANDOM_RANGES = 10;
  static final int RANDOM_RANGES_DELTA = 5;
  private static final String C_TEMPLATE = template(10);
  private static final String PAD_TEMPLATE = template(5);

  private final List<SysbenchStep> steps;
  private final int tables;
  private final int tableSize;
  private final int rangeSize;
  private final RandType randType;

  public SysbenchWorkload(List<SysbenchStep> steps, int tables, int tableSize, int rangeSize, RandType randType) {
    this.steps = List.copyOf(steps);
    this.tables = tables;
    this.tableSize = tableSize;
    this.rangeSize = rangeSize;
    this.randType = randType;
  }

  private static String template(int groups) {
    return String.join("-", java.util.Collections.nCopies(groups, "###########"));
  }

  /** SQL of each statement, {@code %d} the table number; the {@code random-*} ones use table 1. */
  enum Query {
    POINT("SELECT c FROM sbtest%d WHERE id=?"),
    SIMPLE_RANGE("SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ?"),
    SUM_RANGE("SELECT SUM(k) FROM sbtest%d WHERE id BETWEEN ? AND ?"),
    ORDER_RANGE("SELECT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c"),
    DISTINCT_RANGE("SELECT DISTINCT c FROM sbtest%d WHERE id BETWEEN ? AND ? ORDER BY c"),
    INDEX_UPDATE("UPDATE sbtest%d SET k=k+1 WHERE id=?"),
    NON_INDEX_UPDATE("UPDATE sbtest%d SET c=? WHERE id=?"),
    DELETE("DELETE FROM sbtest%d WHERE id=?"),
    INSERT_WITH_ID("INSERT INTO sbtest%d (id, k, c, pad) VALUES (?, ?, ?, ?)"),
    INSERT("INSERT INTO sbtest%d (k, c, pad) VALUES (?, ?, ?)"),
    RANDOM_POINTS("SELECT id, k, c, pad FROM sbtest1 WHERE k IN (" + placeholders("?", ", ", SysbenchWorkload.RANDOM_POINTS) + ")"),
    RANDOM_RANGES("SELECT count(k) FROM sbtest1 WHERE " + placeholders("k BETWEEN ? AND ?", " OR ", SysbenchWorkload.RANDOM_RANGES)),
    BEGIN("BEGIN"),
    COMMIT("COMMIT");

    final String sql;

    Query(String sql) {
      this.sql = sql;
    }

    boolean perTable() {
      return sql.contains("%d");
    }

    private static String placeholders(String each, String separator, int n) {
      return String.join(separator, java.util.Collections.nCopies(n, each));
    }
  }

  private static List<Query> queriesOf(SysbenchStep.Op op) {
    return switch (op) {
      case BEGIN -> List.of(Query.BEGIN);
      case COMMIT -> List.of(Query.COMMIT);
      case POINT_SELECT, POINT_SELECTS -> List.of(Query.POINT);
      case SIMPLE_RANGE -> List.of(Query.SIMPLE_RANGE);
      case SUM_RANGE -> List.of(Query.SUM_RANGE);
      case ORDER_RANGE -> List.of(Query.ORDER_RANGE);
      case DISTINCT_RANGE -> List.of(Query.DISTINCT_RANGE);
      case RANDOM_POINTS -> List.of(Query.RANDOM_POINTS);
      case RANDOM_RANGES -> List.of(Query.RANDOM_RANGES);
      case INDEX_UPDATE -> List.of(Query.INDEX_UPDATE);
      case NON_INDEX_UPDATE -> List.of(Query.NON_INDEX_UPDATE);
      case DELETE_INSERT -> List.of(Query.DELETE, Query.INSERT_WITH_ID);
      case INSERT -> List.of(Query.INSERT);
      case DELETE -> List.of(Query.DELETE);
    };
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Step> steps() {
    List<Step> result = new ArrayList<>();
    for (SysbenchStep step : steps) {
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
    private final SysbenchStep step;

    SysbenchStepRunner(SysbenchStep step) {
      this.step = step;
    }

    @Override
    public String name() {
      return step.stepName();
    }

    @Override
    public TaskRunner open(Connection connection, int clientId, int clients) throws SQLException {
      Runner runner = new Runner(step, clientId, clients);
      try {
        for (SysbenchStep.Op op : step.ops()) {
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
    private final SysbenchStep step;
    private final Map<Query, PreparedStatement[]> statements = new EnumMap<>(Query.class);
    private final StringBuilder text = new StringBuilder(128);
    /** select_random_*: this client's slice of k values, as sysbench gives each thread. */
    private final long sliceMin;
    private final long sliceMax;

    Runner(SysbenchStep step, int clientId, int clients) {
      this.step = step;
      double sliceLength = (double) tableSize / Math.max(1, clients);
      this.sliceMin = (long) (sliceLength * clientId);
      this.sliceMax = (long) (sliceLength * clientId + sliceLength);
    }

    void prepare(Connection connection, Query query) throws SQLException {
      if (statements.containsKey(query)) {
        return;
      }
      int n = query.perTable() ? tables : 1;
      PreparedStatement[] prepared = new PreparedStatement[n];
      statements.put(query, prepared);
      for (int t = 0; t < n; t++) {
        prepared[t] = connection.prepareStatement(query.perTable() ? String.format(java.util.Locale.ROOT, query.sql, t + 1) : query.sql);
      }
    }

    private PreparedStatement statement(Query query, int tableIndex) {
      return statements.get(query)[query.perTable() ? tableIndex : 0];
    }

    private int table(SplittableRandom random) {
      return tables == 1 ? 0 : random.nextInt(tables);
    }

    private int id(SplittableRandom random) {
      return (int) randType.next(random, 1, tableSize);
    }

    @Override
    public void run(int task, SplittableRandom random) throws SQLException {
      for (SysbenchStep.Op op : step.ops()) {
        switch (op) {
          case BEGIN -> statement(Query.BEGIN, 0).execute();
          case COMMIT -> statement(Query.COMMIT, 0).execute();
          case POINT_SELECT -> pointSelects(random, 1);
          case POINT_SELECTS -> pointSelects(random, POINT_SELECTS);
          case SIMPLE_RANGE -> range(Query.SIMPLE_RANGE, random);
          case SUM_RANGE -> range(Query.SUM_RANGE, random);
          case ORDER_RANGE -> range(Query.ORDER_RANGE, random);
          case DISTINCT_RANGE -> range(Query.DISTINCT_RANGE, random);
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

    private void range(Query query, SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(query, table(random));
      int from = id(random);
      ps.setInt(1, from);
      ps.setInt(2, from + rangeSize - 1);
      Sql.consume(ps);
    }

    private void randomPoints(SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(Query.RANDOM_POINTS, 0);
      for (int i = 1; i <= RANDOM_POINTS; i++) {
        ps.setInt(i, (int) randType.next(random, sliceMin, sliceMax));
      }
      Sql.consume(ps);
    }

    private void randomRanges(SplittableRandom random) throws SQLException {
      PreparedStatement ps = statement(Query.RANDOM_RANGES, 0);
      for (int i = 0; i < RANDOM_RANGES; i++) {
        int from = (int) randType.next(random, sliceMin, sliceMax);
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
