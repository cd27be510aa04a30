package dev.benchlake.analysis.cli;

import dev.benchlake.analysis.trend.TrendMetric;
import dev.benchlake.analysis.trend.TrendRequest;
import dev.benchlake.core.cli.BadInputException;
import picocli.CommandLine.Option;

/**
 * What {@code trend} and {@code history} follow along {@code --by}: the order of its values, the
 * metric, the runs, and the change points' level.
 */
public final class SeriesOptions {
  @Option(names = "--order-by", paramLabel = "LABEL",
      description = "The label or runs column that orders values of --by that are neither dates nor versions, e.g."
          + " --by commit --order-by commit_time: each value by its runs' smallest, as times when all are, else as"
          + " versions (numbers as numbers).")
  String orderBy;

  @Option(names = "--metric", paramLabel = "M", defaultValue = "qps",
      description = "qps or tps (throughput, higher is better), mean_s, min_s, max_s or pN_s such as p50_s, p99_s,"
          + " p999_s (latency in seconds, lower is better). Default: ${DEFAULT-VALUE}.")
  String metric;

  @Option(names = "--where", paramLabel = "SELECTOR",
      description = "Only runs matching key=value[,key=value…], e.g. workload=sysbench,os=linux.")
  String where;

  @Option(names = "--change-point-alpha", paramLabel = "A", defaultValue = "0.01",
      description = "Significance level of each change point (default: ${DEFAULT-VALUE}), on its own and stricter"
          + " than --alpha: every step is tested, and pure noise shows a change point in about this fraction of"
          + " steps (Apache Otava's default is 0.001). Each split gets 999 permutations, so p goes down to 0.001.")
  double changePointAlpha = TrendRequest.DEFAULT_CHANGE_POINT_ALPHA;

  /** {@code --order-by}, or null. */
  public String orderBy() {
    return orderBy == null || orderBy.isBlank() ? null : orderBy.trim();
  }

  public TrendMetric metric() {
    return TrendMetric.parse(metric);
  }

  public String where() {
    return where;
  }

  /** @throws BadInputException outside (0, 1) */
  public double changePointAlpha() {
    if (!(changePointAlpha > 0 && changePointAlpha < 1)) {
      throw new BadInputException("--change-point-alpha must be between 0 and 1 (exclusive), not " + changePointAlpha);
    }
    return changePointAlpha;
  }
}
