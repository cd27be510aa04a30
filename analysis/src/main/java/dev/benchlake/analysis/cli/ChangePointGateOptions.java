package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.trend.ChangePointGate;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.ExitCode;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Option;

/** {@code --fail-on change-point --window N}: the nightly CI gate of {@code trend} and {@code history}. */
public final class ChangePointGateOptions {
  @Option(names = "--fail-on", paramLabel = "WHAT",
      description = "A CI gate for nightly jobs, exit 3 (the reports are still written): change-point, when a step's"
          + " change point starts at one of the newest --window values of --by and its ratio (after/before) is beyond"
          + " the margin in the bad direction (throughput down, latency up); each such step, where, and its levels and"
          + " ratio on stderr.")
  String failOn;

  @Option(names = "--window", paramLabel = "N", defaultValue = "1",
      description = "With --fail-on change-point: how many of the newest values a change point may start at (default:"
          + " ${DEFAULT-VALUE}, the newest only).")
  int window = ChangePointGate.DEFAULT_WINDOW;

  /** Whether the gate is asked for; checked (with {@code --window}) before Spark starts. */
  public boolean enabled(String command) {
    if (failOn == null) {
      return false;
    }
    if (!failOn.trim().equalsIgnoreCase("change-point")) {
      throw new BadInputException("--fail-on '" + failOn + "' is not change-point, the one gate of " + command);
    }
    ChangePointGate.window(window);
    return true;
  }

  /** Each failure as a line on {@code stderr}; the exit code: 3 when any, else 0. */
  public int apply(TrendReport report, String command, PrintWriter stderr) {
    List<ChangePointGate.Failure> failures = ChangePointGate.failures(report, window);
    failures.forEach(f -> stderr.println("benchlake " + command + ": " + f.line(report)));
    stderr.flush();
    return failures.isEmpty() ? ExitCode.OK : ExitCode.REGRESSION;
  }
}
