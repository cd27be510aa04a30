package dev.benchlake.ingest.format;

import java.io.Serializable;
import dev.benchlake.ingest.parse.Numerals;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiPredicate;

/**
 * Whether an {@code sb.r.<metric>} summary agrees with the raw sysbench outputs of its step: the
 * figure run.sh would have written, from each {@code sb.o} file's own numbers.
 *
 * <p>run.sh's arithmetic, per dop: {@code qps} is the "(X per sec.)" of the {@code queries:} line
 * printed with {@code %.0f} (for {@code scan}: millions of rows per second, table size × tables /
 * 10⁶ / the run's seconds, with {@code %.3f}: run.sh reads sysbench 1.1's {@code time elapsed:},
 * which is 1.0's {@code total time:}, both {@code total_time} here); {@code trx} the same of {@code transactions:};
 * {@code rtavg}, {@code rtmax}, {@code rt95} copy the {@code avg:}, {@code max:} and percentile
 * figures as printed. A summary figure agrees when it is within half a unit of its last printed
 * digit of that (C's {@code %.0f} rounds half to even, Java's half up: both agree).
 *
 * <p>The figures are one per dop in the order of run.sh's thread list, which the summary does not
 * keep: they are matched to the step's {@code sb.o} files in ascending dop order, skipping files
 * that no figure matches (a later run.sh call with fewer dops leaves the older outputs beside it, as
 * all_small.sh's first {@code point-query.pre} at dop 2 does).
 */
public final class MytoolsSummaryCheck {
  private MytoolsSummaryCheck() {}

  /**
   * The most decimals a figure may have: a double's 15 significant digits (run.sh prints 0 or 3).
   * A figure is compared and shown at its own precision ({@code %.<decimals>f}), so this bounds what
   * a hostile {@code 1E-2147483647} would make of it (a format of 2³¹ digits: an
   * {@link OutOfMemoryError}); the parser rejects a figure beyond it.
   */
  static final int MAX_DECIMALS = 15;

  /**
   * The figure run.sh would have summarised from one {@code sb.o} file, or why there is none.
   *
   * @param value the figure, or null
   * @param missing why there is no figure (when {@code value} is null)
   */
  public record Expected(int dop, String file, Double value, String missing) implements Serializable {
    private static final long serialVersionUID = 1L;
  }

  /**
   * The figure of {@code metric} in one run's whole-run metrics and facts (see
   * {@link SysbenchParser} for the names).
   */
  public static Expected expected(String metric, String testType, int dop, String file, Map<String, Double> metrics,
      Map<String, String> facts) {
    String source;
    switch (metric) {
      case "qps" -> {
        if (testType.equals("scan")) {
          return scan(dop, file, metrics, facts);
        }
        source = "qps";
      }
      case "trx" -> source = "tps";
      case "rtavg" -> source = "latency_avg";
      case "rtmax" -> source = "latency_max";
      case "rt95" -> source = metrics.keySet().stream().filter(k -> k.matches("latency_p\\d+")).sorted().findFirst()
          .orElse("latency_p95");
      default -> throw new IllegalArgumentException("not a summary metric: " + metric);
    }
    Double value = metrics.get(source);
    return new Expected(dop, file, value, value == null ? "it has no " + describe(source) : null);
  }

  private static Expected scan(int dop, String file, Map<String, Double> metrics, Map<String, String> facts) {
    Double seconds = metrics.get("total_time");
    Double rows = number(facts.get("option.table-size"));
    Double tables = number(facts.get("option.tables"));
    if (seconds == null || rows == null || tables == null || seconds <= 0) {
      return new Expected(dop, file, null, "scan's figure needs the run's total time and --table-size and --tables"
          + " on its command line");
    }
    return new Expected(dop, file, rows * tables / 1e6 / seconds, null);
  }

  /**
   * Checks a summary's figures against the step's raw outputs.
   *
   * @param figures the summary's figures as written
   * @param raw the step's raw outputs in ascending dop order
   * @return why they disagree, or empty when every figure agrees
   */
  public static Optional<String> disagreement(String metric, List<String> figures, List<Expected> raw) {
    if (figures.size() > raw.size()) {
      return Optional.of("it has " + figures.size() + " figures but " + raw.size() + " sb.o file"
          + (raw.size() == 1 ? " is" : "s are") + " beside it (" + dops(raw) + ")");
    }
    if (inOrder(figures, raw, MytoolsSummaryCheck::agrees)) {
      return Optional.empty();
    }
    List<String> said = new ArrayList<>();
    if (figures.size() == raw.size()) {
      for (int i = 0; i < figures.size(); i++) {
        if (!agrees(figures.get(i), raw.get(i))) {
          said.add(explain(metric, figures.get(i), raw.get(i)));
        }
      }
    } else {
      said.add(metric + " " + String.join(", ", figures) + " matches no " + figures.size() + " of the sb.o files: "
          + String.join("; ", raw.stream().map(r -> "dop " + r.dop() + " " + shown(r, decimals(figures.get(0)))).toList()));
    }
    return Optional.of(String.join("; ", said));
  }

  private static String explain(String metric, String figure, Expected raw) {
    if (raw.value() == null) {
      return metric + " " + figure + " for dop " + raw.dop() + " cannot be checked: " + raw.file() + " " + raw.missing();
    }
    return metric + " " + figure + " for dop " + raw.dop() + " disagrees with " + raw.file() + ", which gives "
        + shown(raw, decimals(figure));
  }

  private static String shown(Expected raw, int decimals) {
    return raw.value() == null ? "nothing (" + raw.missing() + ")" : String.format(Locale.ROOT, "%." + decimals + "f", raw.value());
  }

  /**
   * Whether each figure agrees with a raw output, in order, skipping outputs: greedily, each figure
   * taking the first output after the previous figure's that it agrees with. Greedy is exact here
   * (a matching that takes a later output for some figure still works with the earliest one: every
   * later figure's output comes after both), and it asks {@code agrees} about each output at most
   * once: linear in the outputs. (A search that tried every choice of outputs ran for minutes on 34.)
   */
  static <F, R> boolean inOrder(List<F> figures, List<R> raw, BiPredicate<F, R> agrees) {
    int j = 0;
    for (F figure : figures) {
      while (j < raw.size() && !agrees.test(figure, raw.get(j))) {
        j++;
      }
      if (j == raw.size()) {
        return false;
      }
      j++;
    }
    return true;
  }

  /** Whether a printed figure is {@code raw}'s value printed with as many decimals. */
  static boolean agrees(String figure, Expected raw) {
    Double value = number(figure);
    if (value == null || raw.value() == null) {
      return false;
    }
    double halfUnit = 0.5 * Math.pow(10, -decimals(figure));
    return Math.abs(value - raw.value()) <= halfUnit + 1e-9 * Math.max(1, Math.abs(raw.value()));
  }

  /** The decimals {@code figure} is printed with, at most {@link #MAX_DECIMALS}; 0 for what is not a number. */
  static int decimals(String figure) {
    return Numerals.decimal(figure).ok() ? Math.min(MAX_DECIMALS, Numerals.decimals(figure)) : 0;
  }

  /** A plain decimal ({@link Numerals#decimal}), or null for anything else. */
  static Double number(String text) {
    if (text == null) {
      return null;
    }
    Numerals.Read read = Numerals.decimal(text);
    return read.ok() ? read.value() : null;
  }

  private static String dops(List<Expected> raw) {
    return raw.isEmpty() ? "none" : "dop " + String.join(", ", raw.stream().map(r -> String.valueOf(r.dop())).toList());
  }

  private static String describe(String metric) {
    return switch (metric) {
      case "qps" -> "queries: line";
      case "tps" -> "transactions: line";
      case "latency_avg" -> "latency avg: line";
      case "latency_max" -> "latency max: line";
      default -> "latency percentile line";
    };
  }
}
