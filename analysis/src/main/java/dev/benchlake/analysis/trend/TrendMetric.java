package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Direction;
import dev.benchlake.core.cli.BadInputException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code benchlake trend --metric} follows, and how each source gives it per run and step.
 *
 * <ul>
 *   <li>{@code qps}, {@code tps} (1/s, higher is better): from {@code step_metrics}, the whole-run
 *       {@code qps} / {@code tps} of sysbench and pgbench summaries (and wide CSV tables with that
 *       metric); from {@code tasks}, the run's throughput as the comparison defines it
 *       ({@link dev.benchlake.analysis.engine.RunCounts#throughputPerS()}: successful tasks per
 *       second; a task is one statement or one transaction, as the step defines it). A run that
 *       recorded its own whole-run figure of a step beside its tasks is followed by that figure:
 *       loadgen's mytools {@code scan} records {@code qps} as rows scanned per second (every client
 *       scans every table once; rows = successful scans × table size, over the pass), as the
 *       study reports scan, where its tasks would give scans per second.
 *   <li>{@code mean_s}, {@code min_s}, {@code max_s}, {@code pN_s} (latency in seconds, lower is
 *       better; {@code p50_s}, {@code p95_s}, {@code p99_s}, {@code p999_s} = 99.9th …): from
 *       {@code step_metrics}, {@code latency_avg}, {@code latency_min}, {@code latency_max},
 *       {@code latency_pN} converted from their unit; from {@code tasks}, the exact quantile
 *       (numpy's linear definition) or mean of the run's successful tasks' latencies.
 * </ul>
 *
 * @param name as given, e.g. {@code p99_s}
 * @param stepMetric the {@code step_metrics} metric that carries it
 * @param quantile for a latency quantile, its probability; NaN otherwise
 */
public record TrendMetric(String name, Kind kind, String stepMetric, double quantile) {
  private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,4})_s");

  /** How the figure is obtained from tasks. */
  public enum Kind {
    THROUGHPUT, MEAN, QUANTILE
  }

  /** @throws BadInputException naming the metrics understood */
  public static TrendMetric parse(String text) {
    String name = text.trim().toLowerCase(Locale.ROOT);
    switch (name) {
      case "qps", "tps" -> {
        return new TrendMetric(name, Kind.THROUGHPUT, name, Double.NaN);
      }
      case "mean_s" -> {
        return new TrendMetric(name, Kind.MEAN, "latency_avg", Double.NaN);
      }
      case "min_s" -> {
        return new TrendMetric(name, Kind.QUANTILE, "latency_min", 0);
      }
      case "max_s" -> {
        return new TrendMetric(name, Kind.QUANTILE, "latency_max", 1);
      }
      default -> {
        Matcher m = PERCENTILE.matcher(name);
        if (m.matches()) {
          String digits = m.group(1);
          double p = Integer.parseInt(digits) / Math.pow(10, digits.length());
          if (p > 0 && p < 1) {
            return new TrendMetric(name, Kind.QUANTILE, "latency_p" + digits, p);
          }
        }
        throw new BadInputException("--metric '" + text + "' is not one of qps, tps, mean_s, min_s, max_s or pN_s "
            + "(a latency percentile in seconds: p50_s, p95_s, p99_s, p999_s …)");
      }
    }
  }

  /** Whether a larger value is better (throughputs) or worse (latencies). */
  public boolean higherIsBetter() {
    return kind == Kind.THROUGHPUT;
  }

  /** Which way is better: higher for throughputs, lower for latencies. */
  public Direction direction() {
    return higherIsBetter() ? Direction.HIGHER_IS_BETTER : Direction.LOWER_IS_BETTER;
  }

  /** The unit of the values: {@code 1/s} or {@code s}. */
  public String unit() {
    return higherIsBetter() ? "1/s" : "s";
  }

  /**
   * A {@code step_metrics} value in this metric's unit, or NaN when its unit cannot be converted
   * (e.g. a latency in an unknown unit).
   */
  public double convert(double value, String unit) {
    String u = unit == null ? "" : unit.trim();
    if (higherIsBetter()) {
      return u.equals("1/s") || u.isEmpty() ? value : Double.NaN;
    }
    return switch (u) {
      case "s" -> value;
      case "ms" -> value / 1e3;
      case "us", "µs" -> value / 1e6;
      case "ns" -> value / 1e9;
      default -> Double.NaN;
    };
  }
}
