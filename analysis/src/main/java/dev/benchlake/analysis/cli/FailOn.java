package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.StepComparison;
import dev.benchlake.analysis.report.Estimate;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.core.TerminalText;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What makes {@code --fail-on} exit with {@link dev.benchlake.core.cli.ExitCode#REGRESSION} (3): the one
 * definition of every gate, read by {@code compare} (a step's call) and by the quickstart and the studies
 * (their calls, and their a/a control), so that a script or a CI job can tell a run it may trust from exit 0.
 */
public enum FailOn {
  /** A step whose verdict is {@code slower}: its 1 − α interval lies above 1. */
  REGRESSION,
  /** A step that is {@code slower} or {@code inconclusive}: no evidence that it did not regress. */
  INCONCLUSIVE,
  /** A step that is not {@code equivalent} within the margin (a change either way, or no evidence). */
  NOT_EQUIVALENT,
  /** A step left {@code inconclusive}: the study did not decide it (faster, slower or equivalent). */
  UNDECIDED,
  /**
   * A study whose a/a control did not confirm the method: it came out faster, slower or inconclusive
   * where it must come out equivalent. Reads no step; a design without a control has nothing to fail.
   */
  UNRELIABLE;

  /** The gates {@code compare} knows: it has no a/a control. */
  static final List<FailOn> OF_COMPARE = List.of(REGRESSION, INCONCLUSIVE, NOT_EQUIVALENT, UNDECIDED);

  /** As the command line spells it: {@code not-equivalent}. */
  public String id() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** One comparison a gate reads: a step (of a trend: a step at one version), its call and its change. */
  public record Call(String step, Verdict verdict, Double ratio, Range interval) {}

  /** Whether a step with this verdict fails the gate. */
  public boolean fails(Verdict verdict) {
    return switch (this) {
      case REGRESSION -> verdict == Verdict.SLOWER;
      case INCONCLUSIVE -> verdict == Verdict.SLOWER || verdict == Verdict.INCONCLUSIVE;
      case NOT_EQUIVALENT -> verdict != Verdict.EQUIVALENT;
      case UNDECIDED -> verdict == Verdict.INCONCLUSIVE;
      case UNRELIABLE -> false;
    };
  }

  /** Whether the study's a/a control fails this gate ({@code control} null: there is none). */
  public boolean fails(AaControl control) {
    return this == UNRELIABLE && control != null && !control.reliable();
  }

  /** A comparison's calls, one per step, on the change its verdict rests on (the per-run medians'). */
  public static List<Call> calls(ComparisonReport report) {
    List<Call> calls = new ArrayList<>();
    for (StepComparison s : report.steps()) {
      Estimate estimate = s.runLevel().median().estimate();
      calls.add(new Call(s.step(), s.verdict(), estimate.ratio(), estimate.ciDecision()));
    }
    return calls;
  }

  /**
   * A trend's calls against its base, one per step and version ({@code step at version} with several
   * versions); a warm-up step's left out, as from every tally ({@link TrendReport#warmUpSteps}).
   */
  public static List<Call> calls(TrendReport report) {
    long versions = report.versions().stream().filter(v -> !v.equals(report.base())).count();
    List<Call> calls = new ArrayList<>();
    for (TrendReport.StepTrend s : report.steps()) {
      if (report.warmUpSteps().contains(s.step())) {
        continue;
      }
      for (TrendReport.VersionFigure v : s.versions()) {
        if (v.verdict() != null) {
          calls.add(new Call(versions > 1 ? s.step() + " at " + v.version() : s.step(), v.verdict(), v.relative(),
              v.ci95()));
        }
      }
    }
    return calls;
  }

  /**
   * {@code compare}'s lines, one per step that fails the gate: which step, its verdict and the change
   * it rests on, e.g. {@code compare: --fail-on regression: step write is slower: +12.0 % [+4.1 %, +20.5 %]}.
   */
  List<String> failures(List<Call> calls) {
    String gate = "compare: --fail-on " + id() + ": step ";
    return calls.stream().filter(c -> fails(c.verdict()))
        .map(c -> TerminalText.escape(gate + c.step() + " is " + Format.verdict(c.verdict()) + ": "
            + Format.changeOf(c.ratio(), c.interval()) + " " + Format.changeInterval(c.interval())))
        .toList();
  }

  /**
   * A study's one stderr line when any of {@code gates} fails, saying which and why, e.g. {@code benchlake
   * quickstart: --fail-on unreliable,undecided: unreliable: the a/a control came out inconclusive, θ +10.8%, 90%
   * interval [+2.8%, +22.8%], not within ±5%; undecided: 2 of 5 steps (insert, update-index)}; empty when none fails.
   */
  public static Optional<String> studyFailure(String command, Collection<FailOn> gates, List<Call> calls,
      AaControl control) {
    List<String> reasons = new ArrayList<>();
    for (FailOn gate : gates.stream().distinct().toList()) {
      if (gate.fails(control)) {
        // The interval its verdict rests on (the 1 − 2α one, checked against the margin).
        reasons.add(gate.id() + ": the a/a control came out " + Format.verdict(control.verdict()) + ", θ "
            + Format.changeOf(control.ratio(), control.equivalenceCi()) + ", "
            + Format.percent(control.equivalenceConfidence()) + " interval " + Format.changeInterval(control.equivalenceCi())
            + ", not within ±" + Format.percent(control.margin()));
      }
      List<String> failed = calls.stream().filter(c -> gate.fails(c.verdict())).map(Call::step).toList();
      if (!failed.isEmpty()) {
        reasons.add(gate.id() + ": " + failed.size() + " of " + calls.size() + " steps (" + String.join(", ", failed)
            + ")");
      }
    }
    if (reasons.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(TerminalText.escape("benchlake " + command + ": --fail-on "
        + gates.stream().map(FailOn::id).collect(Collectors.joining(",")) + ": " + String.join("; ", reasons)));
  }

  /** The gates a command knows, as it spells them: {@code regression, inconclusive, …}. */
  static String spelled(List<FailOn> known) {
    return String.join(", ", known.stream().map(FailOn::id).toList());
  }

  /** The gate {@code value} names among {@code known}, or a conversion error that lists them. */
  static FailOn parse(String value, List<FailOn> known) {
    return known.stream().filter(f -> f.id().equalsIgnoreCase(value.trim())).findFirst()
        .orElseThrow(() -> new picocli.CommandLine.TypeConversionException("'" + value + "' is not one of "
            + spelled(known)));
  }

  /** {@code compare --fail-on}: a step's call. */
  public static final class OfCompare implements picocli.CommandLine.ITypeConverter<FailOn> {
    @Override
    public FailOn convert(String value) {
      return parse(value, OF_COMPARE);
    }
  }

  /** The quickstart's and the studies' {@code --fail-on}: their calls, and their a/a control. */
  public static final class OfStudy implements picocli.CommandLine.ITypeConverter<FailOn> {
    @Override
    public FailOn convert(String value) {
      return parse(value, Arrays.asList(values()));
    }
  }
}
