package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.Correction;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * What a report says of calls made without a correction across their family
 * ({@code --correction none}, {@link Correction#NONE}). That choice is for a single step or
 * family named before the data were seen: Holm over 200 steps leaves such a step a fraction of
 * its power (0.79 falls to 0.03 in issue 26's example). Over N tests of steps that did not change
 * it makes about α·N false calls, so a report using it over more than one test says that first,
 * in every format; its methods name it.
 */
public final class Uncorrected {
  /** What {@code none} is for, as the help, the methods and the warning say it. */
  public static final String PURPOSE = "for a single pre-registered step or family";

  private Uncorrected() {}

  /** Whether the settings leave the calls uncorrected. */
  public static boolean applies(StatisticsSettings settings) {
    return settings.correction() == Correction.NONE;
  }

  /** How many tests a family's decisions weighed together (null decisions, and none, count 0). */
  public static int tests(Collection<Decision> family) {
    return family.stream().filter(Objects::nonNull).mapToInt(Decision::family).max().orElse(0);
  }

  /**
   * The warning a report carries, or none (a correction is made, or there is at most one test):
   * {@code Uncorrected (--correction none) over 12 steps: expect about α·N = 0.6 false calls where
   * nothing changed; none is meant for a single pre-registered step or family.}
   *
   * @param tests how many tests were made without a correction
   * @param what those tests, plural, with any detail: {@code steps}, {@code calls (12 against 11, …)}
   */
  public static List<String> warnings(StatisticsSettings settings, int tests, String what) {
    if (!applies(settings) || tests <= 1) {
      return List.of();
    }
    return List.of("Uncorrected (--correction none) over " + tests + " " + what + ": expect about α·N = "
        + Format.significant(settings.alpha() * tests, 2) + " false calls where nothing changed; none is meant "
        + PURPOSE + ".");
  }
}
