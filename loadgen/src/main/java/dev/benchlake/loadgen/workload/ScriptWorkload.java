package dev.benchlake.loadgen.workload;

import dev.benchlake.core.cli.BadInputException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SortedMap;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * The user's own transactions ({@code --script FILE[@WEIGHT]}, repeatable): one step in which each
 * task runs one of the scripts, chosen at random in proportion to the weights (like pgbench's
 * {@code -f file@weight}). Tasks are recorded under their script's name. loadgen creates no data
 * for scripts: they run on whatever the database holds.
 */
public final class ScriptWorkload implements Workload {
  public static final String NAME = "script";

  private final List<Script> scripts;
  private final SortedMap<String, Long> defines;
  private final long totalWeight;

  public ScriptWorkload(List<Script> scripts, SortedMap<String, Long> defines) {
    if (scripts.isEmpty()) {
      throw new BadInputException("--workload script needs at least one --script FILE");
    }
    Set<String> names = new HashSet<>();
    long total = 0;
    for (Script s : scripts) {
      if (!names.add(s.name())) {
        throw new BadInputException("two scripts are named '" + s.name() + "': tasks are recorded under the "
            + "file name, so give them different names");
      }
      total += s.weight();
    }
    if (total <= 0) {
      throw new BadInputException("--script: at least one script needs a weight above 0");
    }
    this.scripts = List.copyOf(scripts);
    this.defines = new TreeMap<>(defines);
    this.totalWeight = total;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public List<Step> steps() {
    return List.of(new MixStep());
  }

  @Override
  public SortedMap<String, Object> parameters() {
    SortedMap<String, Object> p = new TreeMap<>();
    List<String> described = new ArrayList<>();
    for (Script s : scripts) {
      described.add(s.name() + "@" + s.weight());
      List<String> sql = new ArrayList<>();
      for (Script.Statement st : s.statements()) {
        sql.add(st.sql());
      }
      p.put("script." + s.name() + ".sql", sql);
    }
    p.put("scripts", described);
    p.put("defines", defines);
    return p;
  }

  @Override
  public void load(Connection connection, long seed, Consumer<String> progress) {
    // Scripts run on the user's data.
  }

  @Override
  public void verifyLoaded(Connection connection) {
    // Nothing loadgen can check: a script that finds no table fails on its first task, recorded.
  }

  private final class MixStep implements Step {
    @Override
    public String name() {
      return scripts.size() == 1 ? scripts.get(0).name() : NAME;
    }

    private final List<String> names = scripts.stream().map(Script::name).toList();

    @Override
    public List<String> taskNames() {
      return names;
    }

    @Override
    public int pickTask(SplittableRandom random) {
      if (scripts.size() == 1) {
        return 0;
      }
      long r = random.nextLong(totalWeight);
      for (int i = 0; i < scripts.size(); i++) {
        r -= scripts.get(i).weight();
        if (r < 0) {
          return i;
        }
      }
      return scripts.size() - 1;
    }

    @Override
    public TaskRunner open(Connection connection, int clientId, int clients) throws SQLException {
      List<PreparedStatement[]> prepared = new ArrayList<>();
      try {
        for (Script s : scripts) {
          PreparedStatement[] ps = new PreparedStatement[s.statements().size()];
          prepared.add(ps);
          for (int i = 0; i < ps.length; i++) {
            ps[i] = connection.prepareStatement(s.statements().get(i).sql());
          }
        }
      } catch (SQLException | RuntimeException e) {
        prepared.forEach(Sql::closeQuietly);
        throw e;
      }
      return new Runner(prepared);
    }
  }

  private final class Runner implements TaskRunner {
    private final List<PreparedStatement[]> prepared;
    private final long[][] slots;

    Runner(List<PreparedStatement[]> prepared) {
      this.prepared = prepared;
      this.slots = new long[scripts.size()][];
      for (int i = 0; i < scripts.size(); i++) {
        slots[i] = scripts.get(i).newSlots();
      }
    }

    @Override
    public void run(int task, SplittableRandom random) throws SQLException {
      Script script = scripts.get(task);
      long[] vars = slots[task];
      System.arraycopy(script.initialSlots(), 0, vars, 0, vars.length);
      try {
        script.evaluate(vars, random);
      } catch (ArithmeticException | IllegalArgumentException e) {
        throw new SQLException(script.name() + ": " + e.getMessage(), e);
      }
      PreparedStatement[] statements = prepared.get(task);
      for (int i = 0; i < statements.length; i++) {
        PreparedStatement ps = statements[i];
        int[] params = script.statements().get(i).parameterSlots();
        for (int p = 0; p < params.length; p++) {
          ps.setLong(p + 1, vars[params[p]]);
        }
        boolean hasResult = ps.execute();
        while (true) {
          if (hasResult) {
            try (ResultSet rs = ps.getResultSet()) {
              while (rs.next()) {
                // consume, as a client using the rows would
              }
            }
          } else if (ps.getUpdateCount() == -1) {
            break;
          }
          hasResult = ps.getMoreResults();
        }
      }
    }

    @Override
    public void close() {
      prepared.forEach(Sql::closeQuietly);
    }
  }
}
