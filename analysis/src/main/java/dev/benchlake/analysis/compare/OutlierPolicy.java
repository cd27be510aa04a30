package dev.benchlake.analysis.compare;

import dev.benchlake.core.cli.BadInputException;
import java.math.BigDecimal;
import java.util.Locale;
import java.util.function.DoubleUnaryOperator;

/**
 * Which successful tasks are left out of the latency statistics, per step and group, and
 * reported as removed. Every policy keeps an interval of values, so it applies to the sorted data
 * without another pass. Quantiles are numpy's {@code linear} ones.
 *
 * <ul>
 *   <li>{@code none} (default): keep everything.
 *   <li>{@code iqr[:k]} (Tukey's fences, k = 1.5): keep {@code Q1 − k·(Q3 − Q1) ≤ x ≤ Q3 + k·(Q3 − Q1)}.
 *   <li>{@code mad[:z]} (Iglewicz and Hoaglin's modified z-score, z = 3.5): keep
 *       {@code |0.6745·(x − median)/MAD| ≤ z} with {@code MAD = median(|x − median|)}; when MAD is
 *       0 the score is undefined and nothing is removed.
 *   <li>{@code trim:P} (0 < P < 50): keep {@code q(P/100) ≤ x ≤ q(1 − P/100)}.
 * </ul>
 */
public sealed interface OutlierPolicy {
  /** A policy whose fences follow from a few quantiles of the group (all but the MAD's). */
  sealed interface QuantileFences extends OutlierPolicy {
    /** {@code {low, high}}: values {@code low ≤ x ≤ high} are kept, given the group's quantiles. */
    double[] fences(DoubleUnaryOperator quantile);
  }

  /** Keep every task. */
  record None() implements QuantileFences {
    @Override
    public String describe() {
      return "none";
    }

    @Override
    public double[] quantilesNeeded() {
      return new double[0];
    }

    @Override
    public double[] fences(DoubleUnaryOperator quantile) {
      return new double[] {Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY};
    }
  }

  /** Tukey's fences at {@code k} interquartile ranges. */
  record Iqr(double k) implements QuantileFences {
    @Override
    public String describe() {
      return "iqr:" + plain(k);
    }

    @Override
    public double[] quantilesNeeded() {
      return new double[] {0.25, 0.75};
    }

    @Override
    public double[] fences(DoubleUnaryOperator quantile) {
      double q1 = quantile.applyAsDouble(0.25);
      double q3 = quantile.applyAsDouble(0.75);
      return new double[] {q1 - k * (q3 - q1), q3 + k * (q3 - q1)};
    }
  }

  /**
   * Modified z-score above {@code z}. Its fences need the MAD, which is not a quantile of the
   * values: {@link Outliers} searches for it in the sorted data.
   */
  record Mad(double z) implements OutlierPolicy {
    public static final double SCALE = 0.6745;

    @Override
    public String describe() {
      return "mad:" + plain(z);
    }

    /** The median, and the minimum and maximum that bound the search for the MAD. */
    @Override
    public double[] quantilesNeeded() {
      return new double[] {0.5, 0, 1};
    }

    /** Whether {@code x} is kept: {@code |0.6745·(x − median)/mad| ≤ z}, in this order of operations. */
    public boolean keeps(long x, double median, double mad) {
      return Math.abs(SCALE * (x - median) / mad) <= z;
    }
  }

  /** {@code percent} % cut from each tail. */
  record Trim(double percent) implements QuantileFences {
    @Override
    public String describe() {
      return "trim:" + plain(percent);
    }

    @Override
    public double[] quantilesNeeded() {
      return new double[] {percent / 100, 1 - percent / 100};
    }

    @Override
    public double[] fences(DoubleUnaryOperator quantile) {
      return new double[] {quantile.applyAsDouble(percent / 100), quantile.applyAsDouble(1 - percent / 100)};
    }
  }

  OutlierPolicy NONE = new None();

  /** As written on the command line and in reports, e.g. {@code iqr:1.5}. */
  String describe();

  /** The probabilities whose quantiles the fences need. */
  double[] quantilesNeeded();

  /**
   * Parses {@code none}, {@code iqr[:k]}, {@code mad[:z]}, {@code trim:P}.
   *
   * @throws BadInputException naming the accepted forms
   */
  static OutlierPolicy parse(String text) {
    String spec = text.trim().toLowerCase(Locale.ROOT);
    String[] parts = spec.split(":", 2);
    String argument = parts.length == 2 ? parts[1].trim() : null;
    try {
      OutlierPolicy policy = switch (parts[0]) {
        case "none" -> argument == null ? NONE : null;
        case "iqr" -> new Iqr(argument == null ? 1.5 : positive(argument));
        case "mad" -> new Mad(argument == null ? 3.5 : positive(argument));
        case "trim" -> {
          double percent = argument == null ? Double.NaN : Double.parseDouble(argument.replace("%", ""));
          yield percent > 0 && percent < 50 ? new Trim(percent) : null;
        }
        default -> null;
      };
      if (policy != null) {
        return policy;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new BadInputException("outlier policy '" + text + "' is not one of none, iqr[:k], mad[:z], trim:P"
        + " (k, z > 0; 0 < P < 50), e.g. iqr:1.5, mad:3.5, trim:5");
  }

  private static double positive(String text) {
    double value = Double.parseDouble(text);
    if (!(value > 0) || Double.isInfinite(value)) {
      throw new NumberFormatException(text);
    }
    return value;
  }

  private static String plain(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
