package dev.benchlake.analysis.compare;

import static dev.benchlake.analysis.report.Format.change;
import static dev.benchlake.analysis.report.Format.percent;
import static dev.benchlake.analysis.report.Format.significant;

import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.HeldBack;
import dev.benchlake.analysis.report.Sides;
import dev.benchlake.analysis.stats.RunsAdvice;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.stats.Verdict;

/** A step's verdict in words, each sentence saying only what the numbers next to it support. */
final class VerdictSentences {
  private VerdictSentences() {}

  /**
   * The verdict sentence of a step's median family, with what θ rests on ({@code 4 vs 5 runs}, or
   * {@code 5 pairs}). A paired θ says so: it is the geometric mean of the per-pair ratios.
   */
  static String verdict(RunLevelEffect m, String runs, StatisticsSettings settings) {
    if (m.unavailable() != null) {
      return "Inconclusive: " + m.unavailable() + ".";
    }
    Estimate e = m.estimate();
    // An interval wider than a factor of 2 leaves θ no meaning as a change: say so, show the interval.
    String figure = m.paired() ? "paired per-run median latency " : "per-run median latency ";
    String theta = e.tooNoisyToSay() ? figure + Format.TOO_NOISY + " (the interval spans more than a"
        + " factor of 2)" : figure + change(e.ratio() - 1) + " (θ = " + significant(e.ratio(), 4) + ")";
    String margin = "±" + percent(settings.margin()) + " margin";
    // The intervals the verdict rests on: 1 − α for a difference, 1 − 2α for equivalence.
    String ci = Format.changeInterval(e.ciDecision());
    String level = percent(settings.decisionConfidence()) + " interval";
    String equivalenceLevel = percent(settings.equivalenceConfidence()) + " interval";
    String sentence = switch (m.verdict()) {
      case EQUIVALENT -> (m.decision().realButNegligible()
          ? "Equivalent: a real but negligible difference (" + change(e.ratio() - 1) + ", interval " + ci + ")"
          : "Equivalent: " + theta + ", " + level + " " + ci)
          + "; the " + equivalenceLevel + " " + Format.changeInterval(e.ciEquivalence()) + " lies within the " + margin
          + " (TOST " + Format.pEquals("p_adj", m.pEquivalenceAdjusted()) + ", " + runs + ").";
      case SLOWER, FASTER -> {
        boolean slower = m.verdict() == Verdict.SLOWER;
        String word = slower ? "slower" : "faster";
        // The bound of the interval nearest to 1: how large the change is at least.
        double nearest = slower ? e.ciDecision().low() : e.ciDecision().high();
        String size = m.decision().beyondMargin()
            ? "the whole interval lies beyond the " + margin + ": at least " + change(Math.abs(nearest - 1)).substring(1)
                + " " + word
            : "the size is still uncertain: the interval reaches into the " + margin;
        yield (slower ? "Slower: " : "Faster: ") + theta + ", " + level + " " + ci + " ("
            + Format.pEquals("p_adj", m.pAdjusted()) + ", " + runs + "); " + size + ".";
      }
      case INCONCLUSIVE -> "Inconclusive: " + theta + ", " + level + " " + ci + " (" + runs + "): "
          + whyUndecided(m, settings, margin) + "; " + moreRuns(m.runsAdvice(), margin, e.betweenRunSdLog(), m.paired(),
              e.cpuSetRatio() != null)
          + ".";
    };
    return sentence + cpuSet(e);
  }

  /**
   * Where the CPU set was fitted, what it did: {@code The CPU sets are fitted (crossover): with the
   * baseline on its first round's set the ratio is ×1.28 the ratio with it on the other; θ weighs
   * both alike.} Empty otherwise.
   */
  static String cpuSet(Estimate e) {
    if (e.cpuSetRatio() == null) {
      return "";
    }
    return " The CPU sets are fitted (crossover): with the baseline on its first round's set the ratio is ×"
        + significant(e.cpuSetRatio(), 3) + " the ratio with it on the other; θ weighs both alike.";
  }

  /** The spread a paired θ's interval rests on, as the sentences name it. */
  private static String pairSpread(boolean cpuSetFitted) {
    return cpuSetFitted ? "residual SD of the per-pair log ratios (CPU set fitted)" : "SD of the per-pair log ratios";
  }

  /**
   * Why the call is undecided: the correction held back an interval that excludes 1 (or lies in the
   * band), said with its adjusted p; else the interval is compatible with both.
   */
  private static String whyUndecided(RunLevelEffect m, StatisticsSettings settings, String margin) {
    String heldBack = HeldBack.of(m.decision(), settings, "steps");
    if (heldBack == null) {
      return "compatible both with no change and with one beyond the " + margin;
    }
    return heldBack + " (" + (m.decision().uncorrected() == Verdict.EQUIVALENT
        ? "TOST " + Format.pEquals("p_adj", m.pEquivalenceAdjusted()) : Format.pEquals("p_adj", m.pAdjusted())) + ")";
  }

  /**
   * What more runs (or, {@code paired}, more pairs) would do, never a count the runs present already
   * meet ({@link RunsAdvice}).
   */
  static String moreRuns(RunsAdvice advice, String margin, double betweenRunSdLog, boolean paired,
      boolean cpuSetFitted) {
    String sd = (paired ? "the observed " + pairSpread(cpuSetFitted) + " of " : "the observed between-run SD of ")
        + significant(betweenRunSdLog, 2) + (paired ? "" : " on the log scale");
    String more = paired ? " pairs would decide it" : " runs per group would decide it";
    String present = paired ? "the pairs present" : "the runs present";
    return switch (advice.basis()) {
      case MARGIN -> "about " + advice.runs() + more + " (80% power at " + sd + ")";
      case OBSERVED_EFFECT -> present + " would decide a change of the margin's size or none, but θ lies between:"
          + " about " + advice.runs() + more + " at the observed θ (80% power at " + sd + ")";
      case EDGE_OF_MARGIN -> (paired ? "more pairs" : "more runs") + " will not decide it at this effect size: θ lies at"
          + " the edge of the " + margin + ", neither inside it nor beyond it (" + sd + ")";
      case ALREADY_POWERED -> (paired ? "more pairs" : "more runs") + " are not what it lacks: " + present
          + " already have 80% power at the margin"
          + " and at the observed θ (" + sd + ")";
    };
  }

  /** Which variance component dominates, or null when they are not both known. */
  static String variance(RunLevelEffect m) {
    if (m.estimate().betweenRunSdLog() == null || m.withinRunSeLog() == null) {
      return null;
    }
    double between = m.estimate().betweenRunSdLog();
    double within = m.withinRunSeLog();
    // Paired, the spread that matters is the per-pair log ratios': the pairing cancels the runs' own.
    String figures = "(" + (m.paired() ? pairSpread(m.estimate().cpuSetRatio() != null) + " " : "between-run SD ")
        + significant(between, 2)
        + ", within-run SE of the log median " + significant(within, 2) + ")";
    String replicates = m.paired() ? "Pairs" : "Runs";
    String more = m.paired() ? "more pairs" : "more runs";
    if (between >= 2 * within) {
      return replicates + " differ far more than a run's own sampling noise " + figures
          + ": more tasks per run will not help; " + more + " will.";
    }
    if (within >= 2 * between) {
      return "A run's own sampling noise dominates " + figures + ": more tasks per run will help as much as " + more + ".";
    }
    return (m.paired() ? "Pair-to-pair" : "Run-to-run") + " and within-run noise are of similar size " + figures + ": "
        + more + " help most, more tasks per run somewhat.";
  }

  /** The errors across runs, when there are any ({@code errors}: each side's failed tasks). */
  static String errors(RunErrors e, Sides<Long> errors) {
    if (errors.both(n -> n == 0)) {
      return "";
    }
    String rates = " Errors: " + errors.baseline() + " vs " + errors.candidate() + " tasks; mean per-run error rate "
        + Format.rate(e.meanRate().baseline()) + " vs " + Format.rate(e.meanRate().candidate());
    if (e.p() == null) {
      return rates + " (no run-level test: too few runs or no variation).";
    }
    return rates + " (Welch's t on the per-run rates, " + Format.pEquals("p", e.p()) + ").";
  }
}
