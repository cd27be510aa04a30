package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Sides;
import java.util.List;
import java.util.Objects;

/**
 * The run as the unit of replication: each side's runs with their figures ({@link RunFigure}),
 * θ of each family ({@link RunLevelEffect}), and the errors across runs. The median's θ decides
 * the verdict; p99 and throughput are their own families, with their own corrections across steps.
 *
 * @param variance which variance component dominates, in words; null when not both are known
 */
public record RunLevel(Sides<List<RunFigure>> runs, RunLevelEffect median, RunLevelEffect p99,
    RunLevelEffect throughput, RunErrors errors, String variance) {

  /** The three families, in the reports' order. */
  public List<RunLevelEffect> effects() {
    return List.of(median, p99, throughput);
  }

  /**
   * A family's name as the reports show it: p99 and throughput {@code (descriptive)}. Only the
   * median's verdicts are the step's calls, spend the α budget and stop a study run until decided;
   * the other two are corrected each on its own, outside that budget.
   */
  public String label(RunLevelEffect effect) {
    return effect == median ? effect.metric() : effect.metric() + " (descriptive)";
  }

  public RunLevelEffect effect(Family family) {
    return switch (family) {
      case MEDIAN -> median;
      case P99 -> p99;
      case THROUGHPUT -> throughput;
    };
  }

  /**
   * What the median's θ rests on: the runs of each side with successful tasks, {@code 5 vs 5}; in the
   * paired analysis the complete pairs, {@code 5 pairs}.
   */
  public String counts() {
    if (median.paired()) {
      int n = median.pairs().size();
      return n + (n == 1 ? " pair" : " pairs");
    }
    Sides<Long> n = runs.map(r -> r.stream().map(RunFigure::medianS).filter(Objects::nonNull).count());
    return n.baseline() + " vs " + n.candidate();
  }

  /** {@link #counts()} as a sentence says it: {@code 5 vs 5 runs}, {@code 5 pairs}. */
  public String replicates() {
    return median.paired() ? counts() : counts() + " runs";
  }

  /** Each side's run ids (with tasks in the step), in id order. */
  public Sides<List<String>> runIds() {
    return runs.map(r -> r.stream().map(RunFigure::runId).toList());
  }

  /**
   * The pairs the median's paired θ rests on and the runs it dropped, in words
   * ({@link RunPairs#describe}); null for the unpaired analysis.
   */
  public String pairsSentence() {
    return median.pairs() == null ? null : median.pairs().describe();
  }
}
