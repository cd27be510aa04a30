package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.CallTally;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;

/**
 * The result of {@code benchlake compare}, complete: everything report.json, report.md and
 * report.html show, and what a page needs to plot, so that later tools reuse it without
 * recomputing. The writers only read it.
 *
 * @param selections the runs each selector chose
 * @param outliers the outlier policy, e.g. {@code none}, {@code iqr:1.5}
 * @param thresholdS {@code --threshold} in seconds, or null
 * @param design how the runs were paired, which chose the analysis
 *     ({@link dev.benchlake.analysis.report.Pairing#design}): {@code unpaired}, {@code duet} or
 *     {@code paired-by:round}
 * @param skippedSteps steps present in only one group (not compared)
 * @param methods how the figures were computed, one line each
 * @param replicates what the runs' server starts say of their independence, one sentence per
 *     group that deserves one ("these runs are not independent replicates", "not recorded")
 * @param warnings what a reader must know before trusting the calls, one sentence each (e.g. no
 *     correction over several steps)
 * @param aaControl a duet study's a/a control, which the headline leads with unless it confirmed the method; null
 *     for a plain comparison
 * @param sequential how a study run until decided stopped; null otherwise
 * @param cutShort a study that stopped before its plan's end, which the headline leads with; null
 *     otherwise
 * @param scope what the runs measured ({@link Scope}); null only for a report made without its runs
 *     (a test of the statistics)
 * @param controlItself whether this is the a/a control's own report ({@code aa/}): its headline is
 *     the control's verdict, on the figure the study reports (a round's mean over its steps), and
 *     its per-step calls are descriptive, each step alone having a fifth of that figure's information
 *     in a five-step study (issue 49: three pages, three stories)
 */
public record ComparisonReport(Sides<Selection> selections, StatisticsSettings settings, String outliers,
    Double thresholdS, String design, List<StepComparison> steps, List<String> skippedSteps, List<String> methods,
    List<String> replicates, List<String> warnings, AaControl aaControl, SequentialStop sequential,
    CutShort cutShort, Scope scope, boolean controlItself) {
  /** report.json's {@code format_version}: 2 since the run-level verdicts (issue 13). */
  public static final int FORMAT_VERSION = 2;

  /** A report that is not an a/a control's own. */
  public ComparisonReport(Sides<Selection> selections, StatisticsSettings settings, String outliers,
      Double thresholdS, String design, List<StepComparison> steps, List<String> skippedSteps, List<String> methods,
      List<String> replicates, List<String> warnings, AaControl aaControl, SequentialStop sequential,
      CutShort cutShort, Scope scope) {
    this(selections, settings, outliers, thresholdS, design, steps, skippedSteps, methods, replicates, warnings,
        aaControl, sequential, cutShort, scope, false);
  }

  /** The runs a selector chose. */
  public record Selection(String selector, List<String> runs) {}

  /** This report with its study's a/a control. */
  public ComparisonReport withAaControl(AaControl control) {
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, steps, skippedSteps, methods,
        replicates, warnings, control, sequential, cutShort, scope, controlItself);
  }

  /**
   * This report as the a/a control's own ({@code aa/}): it leads with {@code control}'s verdict, and
   * its per-step calls are descriptive. Null {@code control} (fewer than two rounds): as it is.
   */
  public ComparisonReport asControlItself(AaControl control) {
    return control == null ? this : new ComparisonReport(selections, settings, outliers, thresholdS, design, steps,
        skippedSteps, methods, replicates, warnings, control, sequential, cutShort, scope, true);
  }

  /** This report as the look a study run until decided stopped at; its methods name the rule. */
  public ComparisonReport withSequentialStop(SequentialStop stop) {
    List<String> all = new java.util.ArrayList<>(methods);
    all.add(stop.sentence());
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, steps, skippedSteps,
        List.copyOf(all), replicates, warnings, aaControl, stop, cutShort, scope, controlItself);
  }

  /** This report as the report of a study cut short: its headline leads with it. */
  public ComparisonReport withCutShort(CutShort cut) {
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, steps, skippedSteps, methods,
        replicates, warnings, aaControl, sequential, cut, scope, controlItself);
  }

  /** This report with its steps replaced (their resource figures added). */
  public ComparisonReport withSteps(List<StepComparison> newSteps) {
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, List.copyOf(newSteps), skippedSteps,
        methods, replicates, warnings, aaControl, sequential, cutShort, scope, controlItself);
  }

  /** This report with one more line in its methods. */
  public ComparisonReport withMethod(String method) {
    List<String> all = new java.util.ArrayList<>(methods);
    all.add(method);
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, steps, skippedSteps,
        List.copyOf(all), replicates, warnings, aaControl, sequential, cutShort, scope, controlItself);
  }

  /** This report with what its runs measured. */
  public ComparisonReport withScope(Scope runsScope) {
    return new ComparisonReport(selections, settings, outliers, thresholdS, design, steps, skippedSteps, methods,
        replicates, warnings, aaControl, sequential, cutShort, runsScope, controlItself);
  }

  /** The a/a control's own report: what its per-step calls are, before their tally. */
  public static final String DESCRIPTIVE_STEPS = "Per step (descriptive: the control's verdict is the one above, on "
      + "the figure the study reports; one step alone has too few degrees of freedom to confirm or fault the method): ";

  /**
   * Whether the headline carries the control's sentence: where it did not confirm the method, or
   * in the control's own report; the writers show a confirming sentence elsewhere otherwise.
   */
  public boolean headlineHasControl() {
    return aaControl != null && (controlItself || !aaControl.reliable());
  }

  /** How many steps got each verdict. */
  public CallTally tally() {
    return CallTally.of(steps.stream().map(StepComparison::verdict));
  }

  /**
   * The calls before any figure: {@code Calls: 1 slower, 1 inconclusive (2 steps).}; after a failed
   * a/a control that did not confirm the method, its sentence first ({@code Unreliable: …} or {@code Control too
   * short to confirm the method: …}); a study cut short, {@code Cut short after round …} before all.
   */
  public String headline() {
    String counted = tally().ofSteps();
    String withControl;
    if (controlItself) {
      withControl = aaControl.sentence() + " " + DESCRIPTIVE_STEPS + counted;
    } else {
      String calls = "Calls: " + counted;
      withControl = aaControl != null && !aaControl.reliable() ? aaControl.sentence() + " " + calls : calls;
    }
    return cutShort == null ? withControl : cutShort.sentence() + " " + withControl;
  }

  /** Whether any step is significantly slower (its per-run median θ's interval lies above 1). */
  public boolean hasRegression() {
    return steps.stream().anyMatch(s -> s.verdict() == Verdict.SLOWER);
  }

  /** Whether any step is slower or inconclusive: no evidence that it did not regress. */
  public boolean hasRegressionOrInconclusive() {
    return steps.stream().anyMatch(s -> s.verdict() == Verdict.SLOWER || s.verdict() == Verdict.INCONCLUSIVE);
  }

  /** Whether any step is not shown equivalent within the margin (faster counts too). */
  public boolean hasNonEquivalent() {
    return steps.stream().anyMatch(s -> s.verdict() != Verdict.EQUIVALENT);
  }
}
