package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.core.TerminalText;
import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code trend --fail-on change-point [--window N]}, a nightly job's gate: it fails when a step's
 * change point starts at one of the newest {@code window} versions (or dates) and its ratio
 * {@code after / before} is beyond the margin (outside {@code [1/(1+M), 1+M]}, the band of the
 * calls) in the bad direction, as the metric's {@link dev.benchlake.analysis.report.Direction} says
 * (throughput down, latency up: {@link Verdict#SLOWER}). A shift that started earlier has been
 * reported by an earlier night already; an improvement never fails the gate.
 */
public final class ChangePointGate {
  /** The window of the gate when {@code --window} is not given: the newest version only. */
  public static final int DEFAULT_WINDOW = 1;

  private ChangePointGate() {}

  /** A change point that fails the gate. */
  public record Failure(String step, ChangePoint changePoint) {
    /**
     * One line for stderr: which step, when, and by how much. The step and the value are data (a
     * step name may hold an escape sequence or a newline): escaped ({@link TerminalText}), so the
     * line is one line and sets nothing on the terminal.
     */
    public String line(TrendReport report) {
      ChangePoint c = changePoint;
      return TerminalText.escape("change point: step " + step + " at " + report.by() + " " + c.at() + ", " + report.metric() + " "
          + Format.significant(c.before(), 4) + " → " + Format.significant(c.after(), 4) + " " + report.unit()
          + " (ratio " + TrendMarkdown.ratio(c.ratio()) + ", " + Format.change(c.ratio() - 1) + ", beyond the ±"
          + Format.percent(report.settings().margin()) + " margin; " + report.direction().better() + "; p "
          + (c.p() < 0.001 ? "< 0.001" : "= " + Format.significant(c.p(), 2)) + ")");
    }
  }

  /** @throws BadInputException when {@code window} is not a positive number of versions */
  public static int window(int window) {
    if (window < 1) {
      throw new BadInputException("--window must be 1 or more (the newest versions a change point may start at), not "
          + window);
    }
    return window;
  }

  /** The change points that fail the gate, in the report's order of steps. */
  public static List<Failure> failures(TrendReport report, int window) {
    List<String> versions = report.versions();
    List<String> newest = versions.subList(Math.max(0, versions.size() - window(window)), versions.size());
    double band = 1 + report.settings().margin();
    List<Failure> failures = new ArrayList<>();
    for (StepTrend s : report.steps()) {
      for (ChangePoint c : s.changePoints()) {
        boolean beyondMargin = c.ratio() > band || c.ratio() < 1 / band;
        if (newest.contains(c.at()) && beyondMargin && report.direction().verdictOf(c.ratio() > 1) == Verdict.SLOWER) {
          failures.add(new Failure(s.step(), c));
        }
      }
    }
    return List.copyOf(failures);
  }
}
