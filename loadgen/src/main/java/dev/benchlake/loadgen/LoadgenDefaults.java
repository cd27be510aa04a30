package dev.benchlake.loadgen;

import dev.benchlake.loadgen.db.EmbeddedBinaries;
import dev.benchlake.loadgen.run.ArrivalSchedule;
import dev.benchlake.loadgen.workload.RandType;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The one place for loadgen's default values: {@link LoadgenConfig.Builder} starts from them, and
 * {@code benchlake loadgen} shows and applies them as its options' defaults (this class is the
 * command's default value provider, so no option repeats a value as an annotation string).
 */
public final class LoadgenDefaults implements IDefaultValueProvider {
  public static final int PG_MAJOR = EmbeddedBinaries.DEFAULT_MAJOR;
  public static final String WORKLOAD = "select-update";
  /** select-update: rows = 10 × 100000 × scale. */
  public static final double SCALE = 1.0;
  public static final int TABLES = 1;
  public static final int TABLE_SIZE = 10_000;
  public static final int RANGE_SIZE = 100;
  public static final RandType RAND_TYPE = RandType.UNIFORM;
  public static final int CLIENTS = 1;
  public static final ArrivalSchedule.Kind SCHEDULE = ArrivalSchedule.Kind.POISSON;
  public static final Duration POOL_TIMEOUT = Duration.ofSeconds(15);
  public static final Duration WARMUP = Duration.ZERO;
  public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration QUERY_TIMEOUT = Duration.ofSeconds(60);
  public static final Duration MAX_OUTAGE = Duration.ofSeconds(60);

  /** The defaults as option text, by option name, written as a user would type them. */
  private static final Map<String, String> OPTION_TEXT = Map.ofEntries(
      Map.entry("--pg-version", Integer.toString(PG_MAJOR)),
      Map.entry("--scale", number(SCALE)),
      Map.entry("--tables", Integer.toString(TABLES)),
      Map.entry("--table-size", Integer.toString(TABLE_SIZE)),
      Map.entry("--range-size", Integer.toString(RANGE_SIZE)),
      Map.entry("--rand-type", RAND_TYPE.name().toLowerCase(Locale.ROOT)),
      Map.entry("--clients", Integer.toString(CLIENTS)),
      Map.entry("--schedule", SCHEDULE.name().toLowerCase(Locale.ROOT)),
      Map.entry("--pool-timeout", duration(POOL_TIMEOUT)),
      Map.entry("--warmup", duration(WARMUP)),
      Map.entry("--connect-timeout", duration(CONNECT_TIMEOUT)),
      Map.entry("--query-timeout", duration(QUERY_TIMEOUT)),
      Map.entry("--max-outage", duration(MAX_OUTAGE)));

  @Override
  public String defaultValue(ArgSpec argSpec) {
    return argSpec instanceof OptionSpec option ? OPTION_TEXT.get(option.longestName()) : null;
  }

  /** {@code 1} rather than {@code 1.0}, as the help has always shown it. */
  static String number(double value) {
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  /** Whole seconds as {@code 10s}, else milliseconds: text that DurationConverter reads back. */
  static String duration(Duration d) {
    return d.toMillis() % 1000 == 0 ? d.toSeconds() + "s" : d.toMillis() + "ms";
  }
}
