package dev.benchlake.loadgen.db;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link Connection} that sends nothing to a server: it records each statement a workload
 * prepares and the parameters of each of its executions, and answers every query with no rows. A
 * step's tasks run on it give its statement shapes with real constants, as its clients bind them,
 * without touching the tables (a write step's tasks would change them) and without the step's
 * measured window. A call a workload's tasks do not make fails ({@link UnsupportedOperationException}).
 */
public final class RecordingConnection {
  /** Executions kept per statement: PostgreSQL's plan cache chooses at the sixth. */
  public static final int EXECUTIONS_KEPT = 6;

  /** One parameter as bound: its value and the type the driver sends it as (as {@code PREPARE} names it). */
  public record Parameter(Object value, String type) {}

  /** A statement and the parameters of its first executions. */
  public record Shape(String sql, List<List<Parameter>> executions) {}

  private final Map<String, Shape> shapes = new LinkedHashMap<>();
  private final Connection connection = proxy(Connection.class, this::onConnection);

  /** The connection to open a step's tasks on. */
  public Connection connection() {
    return connection;
  }

  /** Every statement executed so far, in the order first prepared, with its executions so far. */
  public List<Shape> shapes() {
    return shapes.values().stream().filter(s -> !s.executions().isEmpty())
        .map(s -> new Shape(s.sql(), List.copyOf(s.executions()))).toList();
  }

  /**
   * Whether every statement prepared so far has {@link #EXECUTIONS_KEPT} executions (a statement a
   * task picks among several, e.g. one per table, needs more tasks), and some statement was prepared.
   */
  public boolean enough() {
    return !shapes.isEmpty() && shapes.values().stream().allMatch(s -> s.executions().size() >= EXECUTIONS_KEPT);
  }

  private Object onConnection(Method m, Object[] args) {
    return switch (m.getName()) {
      case "prepareStatement" -> {
        String sql = (String) args[0];
        Shape shape = shapes.computeIfAbsent(sql, s -> new Shape(s, new ArrayList<>()));
        yield statement(shape);
      }
      case "close", "setAutoCommit", "commit", "rollback" -> null;
      case "isClosed" -> false;
      case "getAutoCommit" -> true;
      default -> throw unsupported(m);
    };
  }

  private PreparedStatement statement(Shape shape) {
    Map<Integer, Parameter> bound = new TreeMap<>();
    ResultSet empty = proxy(ResultSet.class, (m, args) -> switch (m.getName()) {
      case "next", "isClosed" -> false;
      case "close" -> null;
      default -> throw unsupported(m);
    });
    return proxy(PreparedStatement.class, (m, args) -> switch (m.getName()) {
      case "setInt" -> bind(bound, args, "int4");
      case "setLong" -> bind(bound, args, "int8");
      case "setShort" -> bind(bound, args, "int2");
      case "setString" -> bind(bound, args, "varchar");
      case "setDouble" -> bind(bound, args, "float8");
      case "setFloat" -> bind(bound, args, "float4");
      case "setBoolean" -> bind(bound, args, "bool");
      case "setBigDecimal" -> bind(bound, args, "numeric");
      case "setObject", "setNull" -> bind(bound, new Object[] {args[0], m.getName().equals("setNull") ? null : args[1]},
          "unknown");
      case "clearParameters" -> {
        bound.clear();
        yield null;
      }
      case "executeQuery" -> {
        executed(shape, bound);
        yield empty;
      }
      case "executeUpdate" -> {
        executed(shape, bound);
        yield 1;
      }
      case "execute" -> {
        executed(shape, bound);
        yield false;
      }
      case "getUpdateCount" -> -1;
      case "getMoreResults" -> false;
      case "getResultSet" -> null;
      case "close" -> null;
      case "isClosed" -> false;
      default -> throw unsupported(m);
    });
  }

  private static Object bind(Map<Integer, Parameter> bound, Object[] args, String type) {
    bound.put((Integer) args[0], new Parameter(args[1], type));
    return null;
  }

  private static void executed(Shape shape, Map<Integer, Parameter> bound) {
    if (shape.executions().size() < EXECUTIONS_KEPT) {
      shape.executions().add(List.copyOf(bound.values()));
    }
  }

  private static UnsupportedOperationException unsupported(Method m) {
    return new UnsupportedOperationException("a step's tasks called " + m.getDeclaringClass().getSimpleName() + "."
        + m.getName() + ", which recording its statements does not answer");
  }

  private interface Handler {
    Object on(Method m, Object[] args);
  }

  private static <T> T proxy(Class<T> type, Handler handler) {
    InvocationHandler h = (self, m, args) -> {
      if (m.getDeclaringClass() == Object.class) {
        return switch (m.getName()) {
          case "equals" -> self == args[0];
          case "hashCode" -> System.identityHashCode(self);
          default -> type.getSimpleName() + " (recording)";
        };
      }
      return handler.on(m, args);
    };
    return type.cast(Proxy.newProxyInstance(RecordingConnection.class.getClassLoader(), new Class<?>[] {type}, h));
  }
}
