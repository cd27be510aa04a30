package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.Verdict;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How many comparisons got each verdict, in the verdicts' order ({@code faster}, {@code slower},
 * {@code equivalent}, {@code inconclusive}), the verdicts no comparison got left out: what a
 * report's headline leads with, before any figure.
 */
public record CallTally(List<Count> counts) {
  /** {@code n} comparisons got {@code verdict}. */
  public record Count(Verdict verdict, long n) {}

  public CallTally {
    counts = List.copyOf(counts);
  }

  public static CallTally of(Stream<Verdict> verdicts) {
    Map<Verdict, Long> byVerdict = new EnumMap<>(Verdict.class);
    verdicts.forEach(v -> byVerdict.merge(v, 1L, Long::sum));
    List<Count> counts = new ArrayList<>();
    byVerdict.forEach((verdict, n) -> counts.add(new Count(verdict, n)));
    return new CallTally(counts);
  }

  public long total() {
    return counts.stream().mapToLong(Count::n).sum();
  }

  /** How many comparisons got {@code verdict}: 0 for a verdict none got. */
  public long count(Verdict verdict) {
    return counts.stream().filter(c -> c.verdict() == verdict).mapToLong(Count::n).sum();
  }

  /**
   * The tally of a comparison's steps, one call each, as a headline counts them: {@code 2 faster, 1
   * inconclusive (3 steps).}
   */
  public String ofSteps() {
    long n = total();
    return text() + " (" + n + (n == 1 ? " step" : " steps") + ").";
  }

  /** {@code 3 faster, 1 slower, 10 equivalent, 34 inconclusive}; {@code no calls} when there are none. */
  public String text() {
    return counts.isEmpty() ? "no calls"
        : String.join(", ", counts.stream().map(c -> c.n() + " " + c.verdict().jsonName()).toList());
  }
}
