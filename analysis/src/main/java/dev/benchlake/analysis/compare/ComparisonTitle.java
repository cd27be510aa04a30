package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Sides;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.RunSelector;
import dev.benchlake.warehouse.RunSelector.Term;
import java.util.ArrayList;
import java.util.List;

/**
 * A comparison's title from its selectors' labels, as a reader says it: the terms both sides share
 * (a study's id, {@code control!=aa}) say nothing of the difference and are left out; what differs is
 * named once, {@code db_major} as the server ({@code db_major=17,control!=aa} against
 * {@code db_major=14,control!=aa}: "PostgreSQL 17 against 14"). The selectors themselves stay on
 * the page beside it. Selectors that share everything, or are not {@code key=value} terms, are
 * their own title.
 *
 * @param candidate the candidate's part, e.g. {@code PostgreSQL 17}
 * @param baseline the baseline's part, e.g. {@code 14} (the key said once, by the candidate)
 */
public record ComparisonTitle(String candidate, String baseline) {
  /** The report's title: its selectors', and the a/a control's own report says it is one. */
  public static ComparisonTitle of(ComparisonReport report) {
    ComparisonTitle title = of(report.selections().map(ComparisonReport.Selection::selector));
    return report.controlItself() ? new ComparisonTitle("a/a control: " + title.candidate, title.baseline) : title;
  }

  /** The title of the comparison of the runs {@code selectors} choose. */
  public static ComparisonTitle of(Sides<String> selectors) {
    List<Term> baseline;
    List<Term> candidate;
    try {
      baseline = RunSelector.parse(selectors.baseline()).terms();
      candidate = RunSelector.parse(selectors.candidate()).terms();
    } catch (BadInputException notTerms) {
      return new ComparisonTitle(selectors.candidate(), selectors.baseline());
    }
    List<Term> ownBaseline = new ArrayList<>(baseline);
    ownBaseline.removeAll(candidate);
    List<Term> ownCandidate = new ArrayList<>(candidate);
    ownCandidate.removeAll(baseline);
    if (ownBaseline.isEmpty() || ownCandidate.isEmpty()) {
      return new ComparisonTitle(selectors.candidate(), selectors.baseline());
    }
    if (ownBaseline.size() == 1 && ownCandidate.size() == 1 && sameKey(ownBaseline.get(0), ownCandidate.get(0))) {
      return new ComparisonTitle(said(ownCandidate.get(0)), value(ownBaseline.get(0)));
    }
    return new ComparisonTitle(said(ownCandidate), said(ownBaseline));
  }

  /** {@code PostgreSQL 17 against 14}. */
  public String text() {
    return candidate + " against " + baseline;
  }

  private static boolean sameKey(Term a, Term b) {
    return a.key().equals(b.key()) && a.negated() == b.negated();
  }

  private static String said(List<Term> terms) {
    return String.join(", ", terms.stream().map(ComparisonTitle::said).toList());
  }

  /** {@code db_major=17}: PostgreSQL 17; {@code side=b}: side b; {@code os!=linux}: os not linux. */
  private static String said(Term term) {
    if (term.key().equals("db_major") && !term.negated()) {
      return "PostgreSQL " + term.value();
    }
    return term.key() + " " + value(term);
  }

  private static String value(Term term) {
    return (term.negated() ? "not " : "") + term.value();
  }
}
