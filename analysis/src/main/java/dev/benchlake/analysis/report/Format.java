package dev.benchlake.analysis.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * How numbers read in sentences and Markdown: the same on every machine ({@link Locale#ROOT},
 * half-even rounding of the decimal value), so that reports can be sealed by golden files.
 */
public final class Format {
  /** What a report shows where a figure is undefined. */
  public static final String DASH = "—";

  private Format() {}

  /** A rate as a percentage with two significant digits ({@code 2.6%}); a dash when undefined. */
  public static String rate(Double rate) {
    return rate == null ? DASH : significant(rate * 100, 2) + "%";
  }

  /** {@link #duration} of a figure in seconds; a dash when undefined. */
  public static String seconds(Double value) {
    return value == null ? DASH : duration(value);
  }

  /** A p-value: {@code < 0.001}, else two significant digits ({@code 0.0078}, {@code 0.1}). */
  public static String p(double p) {
    return p < 0.001 ? "< 0.001" : significant(p, 2);
  }

  /** {@code p = 0.0078} or {@code p < 0.001}. */
  public static String pEquals(String name, double p) {
    return p < 0.001 ? name + " < 0.001" : name + " = " + significant(p, 2);
  }

  /** A relative change, signed, one decimal: {@code +12.3%}, {@code -0.4%}. */
  public static String change(double fraction) {
    return String.format(Locale.ROOT, "%+.1f%%", round(fraction * 100, 1));
  }

  /** What a ratio reads as when its interval is too wide for it to mean a change ({@link Range#tooNoisyToSay}). */
  public static final String TOO_NOISY = "too noisy to say";

  /**
   * A ratio as a change ({@link #change}), or {@link #TOO_NOISY} when {@code shown}, the interval
   * beside it, spans more than a factor of 2; a dash when undefined.
   */
  public static String changeOf(Double ratio, Range shown) {
    if (ratio == null) {
      return DASH;
    }
    return shown != null && shown.tooNoisyToSay() ? TOO_NOISY : change(ratio - 1);
  }

  /** A fraction as a percentage without sign: {@code 5%}, {@code 2.5%}. */
  public static String percent(double fraction) {
    return plain(round(fraction * 100, 4)) + "%";
  }

  /** A duration in seconds with four significant digits in a readable unit: {@code 937.5 ms}. */
  public static String duration(double seconds) {
    double magnitude = Math.abs(seconds);
    if (magnitude >= 1 || seconds == 0) {
      return significant(seconds, 4) + " s";
    }
    if (magnitude >= 1e-3) {
      return significant(seconds * 1e3, 4) + " ms";
    }
    if (magnitude >= 1e-6) {
      return significant(seconds * 1e6, 4) + " µs";
    }
    return significant(seconds * 1e9, 4) + " ns";
  }

  /**
   * A time a person waits for, to the second: {@code 4 min 10 s}, {@code 50 s}. {@link #duration}
   * is for measured figures, to four digits; a study's status line and its budget read better whole.
   */
  public static String minutes(double seconds) {
    long s = Math.round(seconds);
    return s >= 60 ? (s / 60) + " min " + (s % 60) + " s" : s + " s";
  }

  /** {@code digits} significant digits, no exponent, no trailing zeros. */
  public static String significant(double value, int digits) {
    if (value == 0) {
      return "0";
    }
    return new BigDecimal(value).round(new MathContext(digits, RoundingMode.HALF_EVEN)).stripTrailingZeros().toPlainString();
  }

  /** {@code value} rounded to {@code decimals} places (half-even on its exact decimal value). */
  public static double round(double value, int decimals) {
    return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).doubleValue();
  }

  /** A verdict as reports name it: {@code faster}, {@code slower}, {@code equivalent}, {@code inconclusive}. */
  public static String verdict(dev.benchlake.analysis.stats.Verdict verdict) {
    return verdict.jsonName();
  }

  /** {@code [+0.6%, +2.5%]}: an interval of a ratio as changes; a dash when unbounded. */
  public static String changeInterval(Range range) {
    return range == null || range.low() == null || range.high() == null ? DASH
        : "[" + change(range.low() - 1) + ", " + change(range.high() - 1) + "]";
  }

  private static String plain(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
