package dev.benchlake.loadgen.db;

import dev.benchlake.core.raw.StatementPlan;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Explains a statement shape the way a step's clients ran it: pgjdbc prepares a statement on the
 * server once a client has run it a few times, and the server's plan cache then plans its first
 * five executions for their constants (custom plans) and, from the sixth, keeps a generic plan
 * when that does not cost more than the custom ones did on average (or as {@code plan_cache_mode}
 * says, 12+). So this prepares it ({@code PREPARE}, with the parameter types the driver sends) and
 * explains six executions with the step's own constants ({@code EXPLAIN EXECUTE} plans as an
 * execution does and counts in the cache's choice, but runs nothing: a write step's tables stay
 * as they are); the sixth is the plan kept. On 14+ {@code pg_prepared_statements} says whether it was
 * generic; before, a plan that shows {@code $n} was.
 */
public final class PlanExplainer {
  private static final Pattern SHOWS_PARAMETER = Pattern.compile("\\$\\d");
  private static final Pattern EXPLAINABLE = Pattern.compile("(?is)\\s*\\(*\\s*(select|insert|update|delete|with|values"
      + "|table|merge)\\b.*");

  private final Connection connection;
  private final int major;
  private int prepared;

  /** @param connection a connection of the run's own (autocommit on), as the step's user on its database */
  public PlanExplainer(Connection connection, int major) {
    this.connection = connection;
    this.major = major;
  }

  /** Whether {@code sql} is a statement with a plan (not {@code BEGIN}, {@code COMMIT}, {@code SET} …). */
  public static boolean explainable(String sql) {
    return EXPLAINABLE.matcher(sql).matches();
  }

  /**
   * The plan the step's executions of {@code shape} got; a failure (an error of the server, a type
   * the driver sends that {@code PREPARE} does not take) is recorded with its reason. The statement
   * stays prepared, under a name of its own, until the connection closes.
   *
   * @param scrub removes what must not be kept from a server's message (a URL's password)
   */
  public StatementPlan explain(String step, RecordingConnection.Shape shape, java.util.function.UnaryOperator<String> scrub) {
    String name = "benchlake_plan_" + ++prepared;
    List<List<RecordingConnection.Parameter>> executions = shape.executions();
    try (Statement st = connection.createStatement()) {
      List<RecordingConnection.Parameter> first = executions.get(0);
      StringBuilder types = new StringBuilder();
      for (RecordingConnection.Parameter p : first) {
        types.append(types.length() == 0 ? "" : ", ").append(p.type());
      }
      // The PREPARE and the five executions before the choice in one round trip (the driver sends
      // a string of statements at once): a step's statements are explained in a few of them each.
      List<String> warmUp = new ArrayList<>();
      warmUp.add("PREPARE " + name + (first.isEmpty() ? "" : " (" + types + ")") + " AS " + numbered(shape.sql()));
      int last = RecordingConnection.EXECUTIONS_KEPT - 1;
      for (int i = 0; i < last; i++) {
        warmUp.add(explainExecute(name, executions.get(i % executions.size())));
      }
      st.execute(String.join(";\n", warmUp));
      long genericBefore = genericPlans(st, name);
      String plan = lines(st, explainExecute(name, executions.get(last % executions.size())));
      String cache = planCache(st, name, genericBefore, plan, first.isEmpty());
      return new StatementPlan(step, shape.sql(), plan, PlanHash.of(plan), cache, null);
    } catch (SQLException | RuntimeException e) {
      return new StatementPlan(step, shape.sql(), null, null, null, scrub.apply(SqlErrors.message(e)));
    } catch (StackOverflowError e) {
      // A plan is an observation beside the run: one too deep to read is recorded as such, never the
      // end of the run (a regular expression's recursion on a long plan once ended one).
      return new StatementPlan(step, shape.sql(), null, null, null, "its plan could not be read: too long or deep to parse");
    }
  }

  private static String explainExecute(String name, List<RecordingConnection.Parameter> parameters) {
    return "EXPLAIN EXECUTE " + name + arguments(parameters);
  }

  private long genericPlans(Statement st, String name) throws SQLException {
    if (major < 14) {
      return 0;
    }
    try (ResultSet rs = st.executeQuery("select generic_plans from pg_prepared_statements where name = '" + name + "'")) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private String planCache(Statement st, String name, long genericBefore, String plan, boolean noParameters)
      throws SQLException {
    if (major >= 14) {
      return genericPlans(st, name) > genericBefore ? StatementPlan.GENERIC : StatementPlan.CUSTOM;
    }
    if (noParameters || SHOWS_PARAMETER.matcher(plan).find()) {
      return StatementPlan.GENERIC; // a statement without parameters has only the one plan
    }
    return null; // a custom plan, or a generic one whose nodes show no parameter: the server does not say
  }

  private static String lines(Statement st, String sql) throws SQLException {
    StringBuilder text = new StringBuilder();
    try (ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        text.append(text.length() == 0 ? "" : "\n").append(rs.getString(1));
      }
    }
    return text.toString();
  }

  /** {@code (5, 'abc')}: each bound value as a literal, which the prepared statement's declared type reads. */
  static String arguments(List<RecordingConnection.Parameter> parameters) {
    if (parameters.isEmpty()) {
      return "";
    }
    StringBuilder args = new StringBuilder(" (");
    for (int i = 0; i < parameters.size(); i++) {
      Object v = parameters.get(i).value();
      args.append(i == 0 ? "" : ", ");
      if (v == null) {
        args.append("NULL");
      } else if (v instanceof Number && !(v instanceof Double d && !Double.isFinite(d))
          && !(v instanceof Float f && !Float.isFinite(f))) {
        args.append(v instanceof BigDecimal b ? b.toPlainString() : v.toString());
      } else if (v instanceof Boolean b) {
        args.append(b ? "true" : "false");
      } else {
        args.append('\'').append(v.toString().replace("'", "''")).append('\'');
      }
    }
    return args.append(')').toString();
  }

  /**
   * The statement with pgjdbc's {@code ?} placeholders as {@code $1 … $n}, as the driver sends it:
   * a {@code ?} inside a quoted literal, a quoted name or a comment stays, {@code ??} is one {@code ?}.
   */
  static String numbered(String sql) {
    StringBuilder out = new StringBuilder(sql.length() + 8);
    int n = 0;
    for (int i = 0; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (c == '\'' || c == '"') {
        int end = sql.indexOf(c, i + 1);
        while (end >= 0 && end + 1 < sql.length() && sql.charAt(end + 1) == c) {
          end = sql.indexOf(c, end + 2);
        }
        end = end < 0 ? sql.length() - 1 : end;
        out.append(sql, i, end + 1);
        i = end;
      } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
        int end = sql.indexOf('\n', i);
        end = end < 0 ? sql.length() - 1 : end;
        out.append(sql, i, end + 1);
        i = end;
      } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
        int end = sql.indexOf("*/", i + 2);
        end = end < 0 ? sql.length() - 1 : end + 1;
        out.append(sql, i, end + 1);
        i = end;
      } else if (c == '?' && i + 1 < sql.length() && sql.charAt(i + 1) == '?') {
        out.append('?');
        i++;
      } else if (c == '?') {
        out.append('$').append(++n);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
