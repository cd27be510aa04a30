package dev.benchlake.warehouse.export;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What to export: a table, the runs ({@link RunSelector}), optionally some steps and columns, and
 * the format. The constructor checks everything that needs no data, so that a typo fails at once.
 *
 * @param steps only rows of these steps (tables with a {@code step}); empty: every step
 * @param columns these columns in this order; empty: every column of the table
 */
public record ExportRequest(ExportTable table, RunSelector where, List<String> steps, List<String> columns,
    ExportFormat format) {
  /** @throws BadInputException for {@code --step} on a table without steps, or an unknown or repeated column */
  public ExportRequest {
    steps = List.copyOf(steps);
    columns = List.copyOf(columns);
    if (!steps.isEmpty() && !table.hasSteps()) {
      throw new BadInputException("--step: table " + table + " has no steps (tasks and step_metrics have)");
    }
    List<String> known = Arrays.asList(table.schema().fieldNames());
    Set<String> seen = new LinkedHashSet<>();
    for (String column : columns) {
      if (!known.contains(column)) {
        throw new BadInputException("--columns: table " + table + " has no column '" + column + "'; its columns: "
            + String.join(",", known));
      }
      if (!seen.add(column)) {
        throw new BadInputException("--columns: '" + column + "' is named twice");
      }
    }
  }

  /** Every row of {@code table}, every column, as CSV. */
  public static ExportRequest of(ExportTable table) {
    return new ExportRequest(table, RunSelector.all(), List.of(), List.of(), ExportFormat.CSV);
  }

  /** The exported columns, in order. */
  public List<String> outputColumns() {
    return columns.isEmpty() ? Arrays.asList(table.schema().fieldNames()) : columns;
  }
}
