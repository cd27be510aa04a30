package dev.benchlake.loadgen.workload;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.SortedMap;
import java.util.function.Consumer;

/**
 * What loadgen runs: the data it needs and the steps that run on it, one after another.
 * Implementations are immutable and thread-safe; per-connection state lives in {@link TaskRunner}s.
 */
public interface Workload {
  /** E.g. {@code select-update}, {@code sysbench}, {@code script}. */
  String name();

  /** The steps in the order they run. */
  List<Step> steps();

  /**
   * The tables the steps read and write, whose table health loadgen records around each step;
   * empty: not known (a script's), so every user table counts.
   */
  default List<String> tables() {
    return List.of();
  }

  /** Every parameter that shapes the data or the tasks, for the manifest. */
  SortedMap<String, Object> parameters();

  /**
   * (Re)creates the workload's tables and data. Deterministic for a given seed.
   *
   * @param progress one line per phase, for the user
   */
  void load(Connection connection, long seed, Consumer<String> progress) throws SQLException;

  /**
   * Checks that the data is there when the user skipped loading ({@code --skip-load}).
   *
   * @throws dev.benchlake.core.cli.BadInputException naming what is missing
   */
  void verifyLoaded(Connection connection) throws SQLException;
}
