package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;

/**
 * One step compared: both groups, the within-run (descriptive) tests, the run level, and what it
 * means. The verdict rests on the run level's median θ ({@link RunLevel#median()}) and nothing else;
 * {@code confounders} says whether the groups ran the step in the same table-maintenance state
 * (null: not checked), and a verdict whose step is flagged says so in its explanation.
 */
public record StepComparison(String step, GroupStatistics baseline, GroupStatistics candidate, Tests tests,
    RunLevel runLevel, Verdict verdict, String explanation, Plot plot, List<Confounder> confounders) {

  /**
   * This step with its confounders; a flagged one's explanation carries the mark after its
   * verdict word ({@code Faster (confounded: dead_tuples): …}) and the figures at its end.
   */
  public StepComparison withConfounders(List<Confounder> found) {
    String mark = Confounder.mark(found);
    String text = explanation;
    if (mark != null) {
      int colon = text.indexOf(':');
      text = (colon < 0 ? text : text.substring(0, colon) + " (" + mark + ")" + text.substring(colon))
          + " Table maintenance differs between the groups: " + String.join(" ", found.stream()
              .filter(Confounder::flags).map(c -> capitalized(c.detail())).toList());
    }
    return new StepComparison(step, baseline, candidate, tests, runLevel, verdict, text, plot, List.copyOf(found));
  }

  /**
   * What the reports say of the step's table health: the flags with their figures, "not
   * recorded" (never "clean") for runs without it, or that both groups ran it in the same state;
   * null when not checked.
   */
  public String tableHealth() {
    if (confounders == null) {
      return null;
    }
    if (confounders.isEmpty()) {
      return "Table health: recorded in every run; both groups started and ran the step in the same table-maintenance"
          + " state.";
    }
    return String.join(" ", confounders.stream().map(c -> capitalized(c.detail())).toList());
  }

  private static String capitalized(String s) {
    return s.isEmpty() ? s : Character.toUpperCase(s.charAt(0)) + s.substring(1);
  }
}
