package dev.benchlake.loadgen.workload;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A user's transaction ({@code --script FILE[@WEIGHT]}), in a subset of pgbench's script
 * language so that pgbench scripts run unchanged:
 * <pre>
 *   -- comments
 *   \set aid random(1, 100000 * :scale)
 *   BEGIN;
 *   UPDATE pgbench_accounts SET abalance = abalance + 1 WHERE aid = :aid;
 *   SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
 *   END;
 * </pre>
 * One task runs the whole file: the {@code \set} commands in order (see {@link ScriptExpression}),
 * then every SQL statement as a prepared statement, {@code :name} bound as a bigint parameter.
 * Statements end with {@code ;} outside quotes, dollar quotes and comments; {@code ::} casts are
 * left alone. Variables come from {@code \set} lines above their use or from
 * {@code --define name=integer}.
 *
 * @param name the file name without its extension: the task's step name in tasks.csv
 * @param weight relative frequency in a mix of scripts
 * @param setCommands the {@code \set} commands in order
 * @param statements the SQL statements in order
 * @param initialSlots the variables' values before a task (defines; 0 for the others)
 */
public record Script(String name, int weight, List<SetCommand> setCommands, List<Statement> statements,
    long[] initialSlots) {

  /** {@code \set}: evaluate {@code expression} into variable slot {@code slot}. */
  record SetCommand(int slot, ScriptExpression expression) {}

  /**
   * One SQL statement with its {@code :name}s replaced by {@code ?}.
   *
   * @param sql the statement as prepared
   * @param parameterSlots the variable slot of each {@code ?}, in order
   * @param line the line it starts on, for messages
   */
  record Statement(String sql, int[] parameterSlots, int line) {}

  /** A fresh copy of the variables' starting values, for one task. */
  long[] newSlots() {
    return Arrays.copyOf(initialSlots, initialSlots.length);
  }

  void evaluate(long[] slots, SplittableRandom random) {
    for (SetCommand set : setCommands) {
      slots[set.slot()] = set.expression().eval(slots, random);
    }
  }

  /** Reads {@code FILE} or {@code FILE@WEIGHT}. @throws BadInputException naming file, line and cause */
  public static Script load(String fileAndWeight, Map<String, Long> defines) {
    String file = fileAndWeight;
    int weight = 1;
    int at = fileAndWeight.lastIndexOf('@');
    if (at > 0 && fileAndWeight.substring(at + 1).matches("\\d{1,6}")) {
      file = fileAndWeight.substring(0, at);
      weight = Integer.parseInt(fileAndWeight.substring(at + 1));
    }
    Path path = Path.of(file);
    String text;
    try {
      text = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new BadInputException("--script " + file + ": cannot read it (" + e.getMessage() + ")", e);
    }
    String base = path.getFileName().toString();
    int dot = base.lastIndexOf('.');
    String name = dot > 0 ? base.substring(0, dot) : base;
    return parse(name, weight, text, defines, file);
  }

  /** Parses a script's text. @param source the file name, for messages */
  static Script parse(String name, int weight, String text, Map<String, Long> defines, String source) {
    Map<String, Integer> slotOf = new HashMap<>();
    List<Long> initial = new ArrayList<>();
    defines.forEach((k, v) -> {
      slotOf.put(k, initial.size());
      initial.add(v);
    });
    List<SetCommand> sets = new ArrayList<>();
    List<Statement> statements = new ArrayList<>();
    StringBuilder pending = new StringBuilder();
    int pendingLine = 0;
    String[] lines = text.split("\r?\n", -1);
    for (int i = 0; i < lines.length; i++) {
      int lineNo = i + 1;
      String line = lines[i];
      String stripped = line.strip();
      if (stripped.startsWith("\\") && SqlText.isBlank(pending)) {
        pending.setLength(0);
        try {
          sets.add(metaCommand(stripped, slotOf, initial));
        } catch (IllegalArgumentException e) {
          throw new BadInputException(source + ":" + lineNo + ": " + e.getMessage(), e);
        }
        continue;
      }
      if (SqlText.isBlank(pending)) {
        pendingLine = lineNo;
      }
      pending.append(line).append('\n');
      int end;
      while ((end = SqlText.statementEnd(pending)) >= 0) {
        addStatement(pending.substring(0, end), pendingLine, slotOf, statements, source);
        pending.delete(0, end + 1);
        pendingLine = lineNo;
      }
    }
    if (!SqlText.isBlank(pending)) {
      addStatement(pending.toString(), pendingLine, slotOf, statements, source);
    }
    if (statements.isEmpty()) {
      throw new BadInputException(source + ": no SQL statement in the script");
    }
    long[] slots = initial.stream().mapToLong(Long::longValue).toArray();
    return new Script(name, weight, List.copyOf(sets), List.copyOf(statements), slots);
  }

  private static SetCommand metaCommand(String line, Map<String, Integer> slotOf, List<Long> initial) {
    String[] parts = line.substring(1).split("\\s+", 3);
    if (!parts[0].equals("set")) {
      throw new IllegalArgumentException("unsupported meta-command \\" + parts[0] + " (only \\set is supported)");
    }
    if (parts.length < 3 || !parts[1].matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException("\\set needs a variable name and an expression");
    }
    ScriptExpression expression = ScriptExpression.parse(parts[2], slotOf);
    Integer slot = slotOf.get(parts[1]);
    if (slot == null) {
      slot = initial.size();
      slotOf.put(parts[1], slot);
      initial.add(0L);
    }
    return new SetCommand(slot, expression);
  }

  private static void addStatement(String sql, int line, Map<String, Integer> slotOf, List<Statement> out,
      String source) {
    if (SqlText.isBlank(sql)) {
      return;
    }
    List<Integer> params = new ArrayList<>();
    String prepared;
    try {
      prepared = SqlText.bindVariables(SqlText.trimLeading(sql).strip(), slotOf, params);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(source + ":" + line + ": " + e.getMessage(), e);
    }
    out.add(new Statement(prepared, params.stream().mapToInt(Integer::intValue).toArray(), line));
  }

  @Override
  public String toString() {
    return "Script[" + name + "@" + weight + ", " + statements.size() + " statements]";
  }
}
