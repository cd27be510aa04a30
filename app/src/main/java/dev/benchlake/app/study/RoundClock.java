package dev.benchlake.app.study;

import dev.benchlake.analysis.report.Format;
import dev.benchlake.app.study.duet.DuetSchedule;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

/**
 * A study run until decided, as a person follows it: one line per round, "round N of at most M: k of
 * S steps open, about T left" (issue 49), and for the a/a control's "a/a control round N of A: all S
 * steps, about T left"; a round's time leaves out the side JVMs' warm-up ({@link Progress#warmUpNs}).
 * T is the rounds still possible at the measured time of a step in a round so far (a round's time
 * over the steps it ran), the open steps in each comparison round and every step in each a/a round
 * still to come: an upper end, as the study stops as soon as every step is decided. Under a
 * {@code --budget} that ends sooner, T is what is left of the budget ("at most 112 min 3 s left, the
 * budget"): a six-major study's rounds read "about 193 min 9 s left" in a 2-hour budget.
 *
 * <p>An a/a round counts its own steps ({@code controlSteps}): a version study's control is one pair
 * of the base, where each comparison round runs a pair per other major. Counted as a comparison
 * round, each control round still to come weighed five times its time in a six-major study, in the
 * status line and in {@code --budget}'s check, which then stopped the study rounds early.
 */
final class RoundClock {
  private final int controlSteps;
  private long stepRounds;
  private long ns;
  private int looks;
  private long lookNs;

  /** @param controlSteps the steps one a/a control round measures (a pair's once) */
  RoundClock(int controlSteps) {
    this.controlSteps = controlSteps;
  }

  /** A round ran {@code steps} steps (a pair's once) in {@code elapsedNs}. */
  void ran(int steps, long elapsedNs) {
    stepRounds += steps;
    ns += elapsedNs;
  }

  /** A look took {@code elapsedNs}. */
  void looked(long elapsedNs) {
    looks++;
    lookNs += elapsedNs;
  }

  /**
   * What going on costs before the study could stop again, in ns: the next comparison round with
   * the {@code open} steps, the control's rounds among {@code rest}, and a look (the mean so far).
   */
  long nanosBeforeStopping(int open, List<DuetSchedule.Round> rest) {
    double perStepNs = stepRounds == 0 ? 0 : (double) ns / stepRounds;
    return (long) (perStepNs * stepRoundsLeft(1, open, rest)) + (looks == 0 ? 0 : lookNs / looks);
  }

  /** Seconds a step takes in a round, as measured so far; NaN before any round. */
  double secondsPerStep() {
    return stepRounds == 0 ? Double.NaN : ns / 1e9 / stepRounds;
  }

  /**
   * The most time left before comparison round {@code round} runs {@code open} steps: it and the
   * comparison rounds after it up to {@code maxRounds} with the open steps, and the control's rounds
   * among {@code rest}.
   */
  double secondsLeft(int round, int maxRounds, int open, List<DuetSchedule.Round> rest) {
    return secondsPerStep() * stepRoundsLeft(maxRounds - round + 1, open, rest);
  }

  /**
   * The step-rounds in {@code comparisonRounds} comparison rounds of the {@code open} steps and the
   * control's rounds among {@code rest}, each with its {@link #controlSteps}: what the status line
   * and the budget's check both count, so that they cannot disagree on it.
   */
  private double stepRoundsLeft(int comparisonRounds, int open, List<DuetSchedule.Round> rest) {
    long controlRounds = rest.stream().filter(DuetSchedule.Round::aa).count();
    return (double) comparisonRounds * open + (double) controlRounds * controlSteps;
  }

  /**
   * The status line before comparison round {@code round}, which runs {@code open} of its {@code all}
   * steps; {@code budgetSecondsLeft} what is left of the budget ({@link Double#POSITIVE_INFINITY}
   * without one).
   */
  void progress(PrintWriter log, int round, int maxRounds, int open, int all, List<DuetSchedule.Round> rest,
      double budgetSecondsLeft) {
    log.println(String.format(Locale.ROOT, "study: %s of at most %d: %d of %d steps open, %s",
        Progress.roundName(false, round), maxRounds, open, all,
        timeLeft(secondsLeft(round, maxRounds, open, rest), budgetSecondsLeft)));
    log.flush();
  }

  /**
   * The status line before a/a control round {@code ofKind} of {@code aaRounds}, which runs all its
   * steps: the time left counts it, the {@code comparisonRounds} comparison rounds still possible
   * with the {@code open} steps, and the control's rounds among {@code rest}.
   */
  void controlProgress(PrintWriter log, int ofKind, int aaRounds, int comparisonRounds, int open,
      List<DuetSchedule.Round> rest, double budgetSecondsLeft) {
    double left = secondsPerStep() * (controlSteps + stepRoundsLeft(comparisonRounds, open, rest));
    log.println(String.format(Locale.ROOT, "study: %s of %d: all %d steps, %s", Progress.roundName(true, ofKind),
        aaRounds, controlSteps, timeLeft(left, budgetSecondsLeft)));
    log.flush();
  }

  /** The rounds' estimate, or what is left of the budget when the budget ends first (or nothing is measured yet). */
  static String timeLeft(double estimateSeconds, double budgetSecondsLeft) {
    boolean budgetFirst = Double.isFinite(budgetSecondsLeft)
        && (Double.isNaN(estimateSeconds) || budgetSecondsLeft < estimateSeconds);
    return budgetFirst ? "at most " + Format.minutes(Math.max(0, budgetSecondsLeft)) + " left, the budget"
        : Progress.timeLeft(estimateSeconds);
  }
}
