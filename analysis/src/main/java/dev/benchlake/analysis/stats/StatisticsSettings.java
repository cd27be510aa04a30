package dev.benchlake.analysis.stats;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;

/**
 * The settings every run-level decision rests on ({@code compare}, {@code trend} and the studies
 * that end in one): the level α, the equivalence margin M and the correction across the family of
 * tests. This type is their one definition: ranges, defaults, parsing and the message for a bad
 * value. A value outside its range is bad input ({@link BadInputException}: one line, exit 2),
 * whether it came from a command line or from code.
 *
 * <ul>
 *   <li><b>α in (0, 0.5).</b> {@code equivalent} rests on the 1 − 2α interval (TOST at α), which
 *       exists only for α below 0.5; α = 0 would decide nothing. A level above 0.5 is no
 *       significance level anyone means: it is a typo for a percentage or a confidence.
 *   <li><b>M in (0, 1)</b>, written {@code 5%} or {@code 0.05}: changes within the band
 *       [1/(1+M), 1+M] are negligible. M = 0 leaves an empty band, in which nothing can be shown
 *       equivalent and which no number of runs would ever decide ({@link RunsNeeded} would plan
 *       without end); M ≥ 1 calls a halving or a doubling negligible, which no benchmark means
 *       ({@code --margin 5} is far likelier to mean 5 % than 500 %).
 *   <li><b>correction</b> across the steps (and the step-and-version tests of a trend):
 *       {@link Correction#HOLM} by default.
 * </ul>
 *
 * @param alpha the significance level, in (0, 0.5)
 * @param margin the practical-equivalence margin as a fraction, in (0, 1)
 */
public record StatisticsSettings(double alpha, double margin, Correction correction) {
  /** {@code --alpha}'s default, as the help shows it. */
  public static final String DEFAULT_ALPHA = "0.05";
  /** {@code --margin}'s default, as the help shows it. */
  public static final String DEFAULT_MARGIN = "5%";
  /** {@code --correction}'s default, as the help shows it. */
  public static final String DEFAULT_CORRECTION = "holm";
  /** Every setting at its default: the values are the texts above, parsed. */
  public static final StatisticsSettings DEFAULTS = parse(DEFAULT_ALPHA, DEFAULT_MARGIN, DEFAULT_CORRECTION);

  /** @throws BadInputException naming the setting, the value and its range */
  public StatisticsSettings {
    if (!(alpha > 0 && alpha < 0.5)) {
      throw new BadInputException("--alpha " + plain(alpha) + " is not in (0, 0.5): equivalence needs the 1 - 2*alpha"
          + " interval; e.g. --alpha 0.05");
    }
    if (!(margin > 0 && margin < 1)) {
      throw new BadInputException("--margin " + plain(margin) + " is not in (0, 1): a margin of 0 admits no"
          + " equivalence, one of 1 or more calls a doubling negligible; e.g. --margin 5% or 0.05");
    }
    if (correction == null) {
      throw new BadInputException("--correction is missing: one of " + Correction.names());
    }
  }

  /**
   * From the texts of {@code --alpha} (e.g. {@code 0.05}), {@code --margin} ({@code 5%} or
   * {@code 0.05}) and {@code --correction} ({@code holm}, any case).
   *
   * @throws BadInputException with one message for the first bad value
   */
  public static StatisticsSettings parse(String alpha, String margin, String correction) {
    return new StatisticsSettings(alpha(alpha), margin(margin), Correction.parse(correction));
  }

  public StatisticsSettings withAlpha(double level) {
    return new StatisticsSettings(level, margin, correction);
  }

  public StatisticsSettings withMargin(double fraction) {
    return new StatisticsSettings(alpha, fraction, correction);
  }

  public StatisticsSettings withCorrection(Correction method) {
    return new StatisticsSettings(alpha, margin, method);
  }

  /**
   * The options that give these settings back on a command line, those at their default left out
   * (for a report's provenance): e.g. {@code [--margin, 0.1, --correction, bh]}.
   */
  public List<String> options() {
    List<String> options = new ArrayList<>();
    if (alpha != DEFAULTS.alpha) {
      options.addAll(List.of("--alpha", plain(alpha)));
    }
    if (margin != DEFAULTS.margin) {
      options.addAll(List.of("--margin", plain(margin)));
    }
    if (correction != DEFAULTS.correction) {
      options.addAll(List.of("--correction", correction.label()));
    }
    return options;
  }

  /** The confidence of the interval that faster and slower rest on: 1 − α. */
  public double decisionConfidence() {
    return 1 - alpha;
  }

  /** The confidence of the interval that equivalence rests on: 1 − 2α (TOST at α). */
  public double equivalenceConfidence() {
    return 1 - 2 * alpha;
  }

  private static double alpha(String text) {
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException | NullPointerException e) {
      throw new BadInputException("--alpha '" + text + "' is not a number; e.g. --alpha 0.05", e);
    }
  }

  private static double margin(String text) {
    String t = text == null ? "" : text.trim();
    try {
      return t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1).trim()) / 100 : Double.parseDouble(t);
    } catch (NumberFormatException e) {
      throw new BadInputException("--margin '" + text + "' is not a fraction or a percentage; e.g. --margin 5% or 0.05",
          e);
    }
  }

  /** {@code 0.7}, {@code 1.5}: the value as a user would have typed it. */
  private static String plain(double value) {
    return Double.isFinite(value) ? java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString()
        : String.valueOf(value);
  }
}
