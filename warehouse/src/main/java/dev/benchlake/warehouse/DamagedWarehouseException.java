package dev.benchlake.warehouse;

import dev.benchlake.core.cli.BadInputException;

/**
 * A warehouse whose files are not what its logs say (a file cut short or deleted, a log that does
 * not parse, a format file that is not one): bad input, exit 2, one line naming the file, the
 * cause and the next step, before anything is written. The user's to repair: benchlake changes
 * nothing in a damaged warehouse.
 */
public final class DamagedWarehouseException extends BadInputException {
  private static final long serialVersionUID = 1L;

  private final transient WarehouseProblem problem;

  /**
   * @param root the warehouse as the user gave it ({@code --warehouse})
   * @param more how many other problems are known besides this one (0 when none, or none looked for)
   */
  public DamagedWarehouseException(String root, WarehouseProblem problem, int more, Throwable cause) {
    this(problem, problem.line() + (more > 0 ? " (and " + more + " more problem" + (more == 1 ? "" : "s") + ")" : "")
        + "; " + nextStep(root), cause);
  }

  private DamagedWarehouseException(WarehouseProblem problem, String message, Throwable cause) {
    super(message, cause);
    this.problem = problem;
  }

  /**
   * A data file whose bytes are not what was written, met by a read: plain {@code verify} reads no
   * data file's bytes, {@code verify --deep} reads them all.
   */
  public static DamagedWarehouseException ofDataFile(String root, WarehouseProblem problem, Throwable cause) {
    return new DamagedWarehouseException(problem, problem.line() + "; the warehouse is damaged: 'benchlake verify --deep "
        + "--warehouse " + root + "' reads every data file and lists each damaged one; restore them from a backup", cause);
  }

  public WarehouseProblem problem() {
    return problem;
  }

  /** What a user does about a damaged warehouse. */
  static String nextStep(String root) {
    return "the warehouse is damaged: 'benchlake verify --warehouse " + root + "' lists every damaged file; "
        + "restore them from a backup";
  }
}
