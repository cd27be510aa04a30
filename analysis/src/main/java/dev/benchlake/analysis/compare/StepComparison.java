package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.report.ResourceFigures;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.Verdict;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * One step compared: both sides' pooled figures, the within-run (descriptive) tests, the run
 * level, and what it means. The verdict is the run level's median θ's ({@link RunLevel#median()})
 * and nothing else; {@code confounders} says whether the sides ran the step in the same
 * table-maintenance state (null: not checked), and an explanation whose step is flagged says so.
 *
 * @param explanation the verdict in words, with the figures it rests on
 * @param tableHealth what the reports say of the step's table health; null when not checked
 * @param errorCodes every error code of either side, the baseline's order first
 * @param resources the step's per-operation resource figures (descriptive); null when no run has any
 * @param resourceSentence for a step called faster or slower with resource figures, the call with the
 *     largest per-operation change ({@link ResourceFigures#sentence}); null otherwise
 */
public record StepComparison(String step, Sides<GroupStatistics> groups, TaskTests tests, RunLevel runLevel,
    String explanation, Plot plot, List<Confounder> confounders, String tableHealth, List<ErrorCount> errorCodes,
    ResourceFigures resources, String resourceSentence) {

  /** A step without resource figures. */
  public StepComparison(String step, Sides<GroupStatistics> groups, TaskTests tests, RunLevel runLevel,
      String explanation, Plot plot, List<Confounder> confounders, String tableHealth, List<ErrorCount> errorCodes) {
    this(step, groups, tests, runLevel, explanation, plot, confounders, tableHealth, errorCodes, null, null);
  }

  /**
   * This step with its resource figures, and for a faster or slower call its sentence naming the
   * candidate ({@code PostgreSQL 17}) as the title does.
   */
  public StepComparison withResources(ResourceFigures figures, String candidate) {
    String sentence = figures == null ? null
        : figures.sentence(candidate, step, verdict(), runLevel.median().estimate().ratio(),
            runLevel.median().estimate().ciDecision());
    return new StepComparison(step, groups, tests, runLevel, explanation, plot, confounders, tableHealth, errorCodes,
        figures, sentence);
  }

  /** One error code's failed tasks on each side. */
  public record ErrorCount(String code, Sides<Long> tasks) {}

  /**
   * The step with its confounders: a flagged one's explanation carries the mark after its verdict
   * word ({@code Faster (confounded: dead_tuples): …}) and the figures at its end.
   */
  static StepComparison of(String step, Sides<GroupStatistics> groups, TaskTests tests, RunLevel runLevel,
      String explanation, Plot plot, List<Confounder> confounders) {
    String mark = Confounder.mark(confounders);
    String text = explanation;
    if (mark != null) {
      int colon = text.indexOf(':');
      text = (colon < 0 ? text : text.substring(0, colon) + " (" + mark + ")" + text.substring(colon))
          + " Table maintenance differs between the groups: " + String.join(" ", confounders.stream()
              .filter(Confounder::flags).map(c -> capitalized(c.detail())).toList());
    }
    Set<String> codes = new LinkedHashSet<>(groups.baseline().errorsByCode().keySet());
    codes.addAll(groups.candidate().errorsByCode().keySet());
    List<ErrorCount> errors = codes.stream().map(code -> new ErrorCount(code,
        groups.map(g -> g.errorsByCode().getOrDefault(code, 0L)))).toList();
    return new StepComparison(step, groups, tests, runLevel, text, plot,
        confounders == null ? null : List.copyOf(confounders), tableHealth(confounders), errors);
  }

  /** The step's verdict: its median family's. */
  public Verdict verdict() {
    return runLevel.median().verdict();
  }

  /**
   * The flags with their figures, "not recorded" (never "clean") for runs without it, or that both
   * sides ran the step in the same state; null when not checked.
   */
  private static String tableHealth(List<Confounder> confounders) {
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
