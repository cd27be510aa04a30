package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.Uncorrected;
import dev.benchlake.analysis.stats.EDivisive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The trend report's statement of method: what each figure is, one line each (as compare's {@code Methods}). */
final class TrendMethods {
  /** What a paired trend's change points are on (issue 47), inserted after "per-run figures". */
  private static final String PAIRED_FIGURES = " with each pair's shared moment taken out (the runs are paired: the"
      + " moment a pair ran at swings both its runs, and the paired calls cancel it, so the change points must too):"
      + " ln x = the version's level + the term of the run's pairing key + noise, fitted by least squares, each run's log"
      + " less its key's term as the key's other runs estimate it (so that the run's own noise stays in its figure), the"
      + " base keeping its geometric mean (in a duet of several versions a version's run is its ratio to its base"
      + " partner times the base's geometric mean); runs without a partner, and versions whose runs"
      + " share no key with a run tied to the base, are left out (said among the messages), and the levels before and"
      + " after are the geometric means of these figures, so their ratio is comparable to the paired relatives";

  private TrendMethods() {}

  static List<String> describe(TrendRequest request, TableHealthConfounders confounders,
      Map<String, Pairing> pairings) {
    String margin = Format.percent(request.settings().margin());
    List<String> methods = new ArrayList<>(List.of(
        "Per run and step: " + request.metric().name() + " (" + request.metric().unit() + ", "
            + (request.metric().higherIsBetter() ? "higher" : "lower") + " is better); from tasks when the run has them "
            + "(throughput: successful tasks per second from the first to the last end; latency: exact quantiles, numpy's"
            + " linear definition), else from the run's whole-run step_metrics.",
        "Value of a version: the geometric mean over its runs; relative = value / value at " + request.base() + ".",
        "95% interval of a relative: Welch's t interval on the difference of the mean logs of the runs' figures,"
            + " exponentiated (two runs or more at both versions).",
        "Noisy: for some version, the 95% interval of the relative is wider than ±" + margin + " (its half-width on the"
            + " log scale exceeds ln(1 + " + margin + ")).",
        "Calls: faster, slower, equivalent or inconclusive, from Welch's t on the logs of the runs' figures with the band"
            + " [1/(1+M), 1+M], M = " + margin + ": equivalent when the adjusted TOST p ≤ "
            + Format.significant(request.settings().alpha(), 3) + ", else faster/slower when the adjusted difference p ≤ "
            + Format.significant(request.settings().alpha(), 3) + ", else inconclusive, with the runs per version that"
            + " 80% power would need. Against the base and against the previous version, each a family "
            + (Uncorrected.applies(request.settings())
                ? "whose p-values are not adjusted (none: " + Uncorrected.PURPOSE + ")"
                : "with its p-values adjusted together (" + request.settings().correction().label() + ")")
            + "; the changes listed are the faster/slower calls between consecutive versions.",
        "Change points: E-divisive means (Matteson & James 2014, as Apache Otava) on the natural logs of each step's"
            + " per-run figures" + (ChangePoints.onPairedFigures(TrendAnalysis.design(pairings)) ? PAIRED_FIGURES : "")
            + " in " + request.by() + " order, a change only between two values of " + request.by()
            + ", each side at least " + EDivisive.DEFAULT_MIN_SIZE + " runs; each split tested by "
            + EDivisive.DEFAULT_PERMUTATIONS + " permutations of its segment (seeded: the same data give the same"
            + " result), kept when p ≤ " + Format.significant(request.changePointAlpha(), 3) + " (--change-point-alpha,"
            + " a level of its own, stricter than the calls', because every step is tested) and Welch's t on the two sides'"
            + " logs says their means differ at that level too (the energy distance also answers to a change of"
            + " spread alone, which is no shift of level), then the segments searched again; before/after are the"
            + " geometric means of the segments either side. Each step is tested on its own: among many steps that"
            + " do not change, about " + Format.percent(request.changePointAlpha()) + " of them may still show one.",
        "Groups: by step name (point query, range query, writes, other; for mytools names <test>_range=<R> the"
            + " study's five: point query parts 1 and 2, range query parts 1 and 2, writes) unless a groups file says"
            + " otherwise;"
            + " per version the geometric mean of the group's positive relatives; its 95% interval from the mean of"
            + " the steps' log relatives, each step with all of its runs, its standard error clustered by run (CR2, so"
            + " the steps' runs in common count) and Welch-Satterthwaite df: Welch's t on the runs' group figures"
            + " (each run's geometric mean of its relative figures over those steps) when every run has every step;"
            + " called as the steps are, every group and version against the base a family of its own. A warm-up step"
            + " (group warm-up) is charted and called but counted in no tally, and its group is not called."));
    List<Pairing> paired = pairings.values().stream().filter(Pairing::paired).distinct().toList();
    methods.add(paired.isEmpty() ? "Analysis against " + request.base() + ": unpaired (design " + Pairing.UNPAIRED_DESIGN
        + "): " + Pairing.UNPAIRED.reason() + "."
        : "Analysis against " + request.base() + ": paired (design " + TrendAnalysis.design(pairings) + "): " + paired.get(0).reason()
            + "; the relative of a paired version is that geometric mean, and a version with fewer than 2 complete"
            + " pairs has no interval (inconclusive). Between consecutive versions the runs are paired the same way (from "
            + request.base() + " it is the comparison against " + request.base() + ": the same figures and calls; in a"
            + " duet of several versions, each against " + request.base() + " in every round (label pair), two other"
            + " versions never ran at the same moment and are compared through their pairs: per round the ratio of"
            + " their ratios to " + request.base() + ", the one-sample t of its logs). A"
            + " group of a paired version is paired too: the mean of its steps' paired log ratios (each step's own"
            + " estimate, from all of its pairs), its standard error clustered by round (CR2) with Satterthwaite's df,"
            + " so every round that measured any of its steps counts and the swing that all steps of a round share"
            + " cancels, as in each step; when every round has every step, the paired analysis of the per-round group"
            + " ratios (each pair's geometric mean of its steps' ratios).");
    if (confounders != null) {
      methods.add(confounders.method());
    }
    return List.copyOf(methods);
  }
}
