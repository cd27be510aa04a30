package dev.benchlake.app.study;

import dev.benchlake.warehouse.spark.SparkOptions;
import org.apache.spark.sql.SparkSession;
import picocli.CommandLine.Option;

/**
 * {@code --verbose} of the quickstart and the studies: their own status lines carry the progress, one a
 * round ({@link Progress}), so each measurement's detail, Spark's stage bars (which break into them on a
 * terminal) and the analysis' INFO lines (its timings, for {@code compare} and {@code trend} run on their
 * own) show only when asked for.
 */
public final class VerboseOption {
  @Option(names = "--verbose", description = "Also show each measurement's detail (each pair's start and end, each "
      + "step's start on both sides, each CPU-set swap's timing, each warm-up pass and ingest), Spark's stage bars on "
      + "a terminal and the analysis' INFO lines (BENCHLAKE_LOG_LEVEL=debug shows more). Without it: a line per round.")
  boolean verbose;

  /** Whether {@code --verbose} was given. */
  public boolean on() {
    return verbose;
  }

  /** The analysis' loggers: {@code Compare}, {@code Trend} log what they read and how long it took. */
  private static final String ANALYSIS = "dev.benchlake.analysis";

  /** The command's Spark session, quiet unless {@code --verbose}. */
  public SparkSession session(SparkOptions spark, String appName) {
    if (!verbose) {
      dev.benchlake.core.cli.QuietLogs.warnOnly(ANALYSIS);
    }
    return spark.session(appName, verbose);
  }
}
