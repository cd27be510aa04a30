package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What a report says beside a call the correction across the family held back: the interval shown
 * excludes 1 (or lies within the margin), and yet the call is {@code inconclusive}, because the
 * p-value did not survive the correction over the family's other tests. Shown as it is, that
 * interval would overstate what is known; said with the correction, it informs.
 */
public final class HeldBack {
  /** Beside a call whose interval excludes 1 before the correction. */
  public static final String EXCLUDES_ONE = "¹";
  /** Beside a call whose interval lies within the margin before the correction. */
  public static final String WITHIN_MARGIN = "²";

  private HeldBack() {}

  /** The mark a table puts beside such a call ({@link #EXCLUDES_ONE}, {@link #WITHIN_MARGIN}), or nothing. */
  public static String mark(Decision decision) {
    if (decision == null || !decision.heldBackByCorrection()) {
      return "";
    }
    return decision.uncorrected() == Verdict.EQUIVALENT ? WITHIN_MARGIN : EXCLUDES_ONE;
  }

  /** The notes a table's marks refer to, in mark order: {@code ¹ The 95% interval excludes 1, but …}. */
  public static List<String> footnotes(Collection<Decision> decisions, StatisticsSettings settings, String tests) {
    List<String> notes = new ArrayList<>();
    for (String mark : List.of(EXCLUDES_ONE, WITHIN_MARGIN)) {
      decisions.stream().filter(Objects::nonNull).filter(d -> mark(d).equals(mark)).findFirst().ifPresent(d -> {
        String note = of(d, settings, tests);
        notes.add(mark + " " + Character.toUpperCase(note.charAt(0)) + note.substring(1) + ".");
      });
    }
    return notes;
  }

  /**
   * {@code the 95% interval excludes 1, but not after Holm's correction over 38 tests}, or null
   * when the correction did not change the call.
   *
   * @param tests what the family's members are, plural: {@code steps}, {@code tests}
   */
  public static String of(Decision decision, StatisticsSettings settings, String tests) {
    if (decision == null || !decision.heldBackByCorrection()) {
      return null;
    }
    String after = ", but not after " + settings.correction().inWords() + " over " + decision.family() + " " + tests;
    return decision.uncorrected() == Verdict.EQUIVALENT
        ? "the " + Format.percent(settings.equivalenceConfidence()) + " interval lies within the ±"
            + Format.percent(settings.margin()) + " margin" + after
        : "the " + Format.percent(settings.decisionConfidence()) + " interval excludes 1" + after;
  }
}
