package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.Interval;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.core.raw.ResourceMetric;
import java.util.List;
import java.util.Map;

/**
 * One per-operation resource figure of one step on both sides ({@link ResourceMetric}: server CPU
 * per operation, context switches, WAL, blocks, …), descriptive: it explains a call, it never makes
 * one, so its interval is 95 % whatever α and it is in no correction across steps.
 *
 * <p>The change is θ of the runs' figures by the step's own {@link EffectMethod} (the pairs of the
 * latency verdict in a duet or with {@code --pair-by}, else two independent groups), and in the
 * figure's unit {@code baseline level × (θ − 1)}, its interval likewise: θ applied to the baseline.
 * A side's level is the geometric mean of its runs' figures (the arithmetic mean where a run's is
 * 0). A figure no run of a side has is not measured there, with the manifest's reason: never 0.
 *
 * @param level each side's geometric mean of its runs' figures; null where the side has none
 * @param ratio θ, candidate over baseline; null without an interval
 * @param ratioCi95 θ's 95 % interval; {@link Range#UNBOUNDED} without one
 * @param notMeasured why a side has no figure ({@code not measured on the candidate: pg_stat_io needs
 *     PostgreSQL 16; this is 14}); null when both have one
 * @param noInterval why there is no interval although both sides have figures; null otherwise
 */
public record ResourceFigure(ResourceMetric metric, Sides<Double> level, Double ratio, Range ratioCi95,
    String notMeasured, String noInterval) {

  /** The 95 % of the descriptive intervals. */
  public static final double CONFIDENCE = 0.95;

  /**
   * @param byRun each side's runs' figures, by run id (a run without the figure absent)
   * @param notMeasuredWhy each side's reason from its manifests, or null for "not recorded"
   * @param method the step's effect method ({@link Pairing#method})
   */
  public static ResourceFigure of(ResourceMetric metric, Sides<? extends Map<String, Double>> byRun,
      Sides<String> notMeasuredWhy, EffectMethod method) {
    Sides<Double> level = byRun.map(ResourceFigure::level);
    if (level.either(l -> l == null)) {
      return new ResourceFigure(metric, level, null, Range.UNBOUNDED, notMeasured(level, notMeasuredWhy), null);
    }
    String noInterval = whyNoInterval(byRun, method);
    if (noInterval != null) {
      return new ResourceFigure(metric, level, null, Range.UNBOUNDED, null, noInterval);
    }
    RatioEffect effect = method.estimate(byRun);
    Interval ci = effect.interval(CONFIDENCE);
    if (!ci.bounded()) {
      return new ResourceFigure(metric, level, null, Range.UNBOUNDED, null, "the runs show no spread to build an"
          + " interval on");
    }
    return new ResourceFigure(metric, level, effect.ratio(), Range.of(ci), null, null);
  }

  /**
   * {@code not measured on the candidate: why}; {@code not measured: why} when both sides give one
   * reason, {@code not measured on either side} when neither gives any.
   */
  private static String notMeasured(Sides<Double> level, Sides<String> notMeasuredWhy) {
    Sides<String> why = notMeasuredWhy == null ? Sides.of(null, null) : notMeasuredWhy;
    if (level.both(l -> l == null) && java.util.Objects.equals(why.baseline(), why.candidate())) {
      return "not measured" + (why.baseline() == null ? " on either side" : ": " + why.baseline());
    }
    List<String> parts = new java.util.ArrayList<>();
    for (Side side : Side.values()) {
      if (level.get(side) == null) {
        parts.add("on the " + side.label() + (why.get(side) == null ? "" : ": " + why.get(side)));
      }
    }
    return "not measured " + String.join("; ", parts);
  }

  /** Why θ has no interval from these figures (too few runs or pairs, a 0, no spread), or null. */
  private static String whyNoInterval(Sides<? extends Map<String, Double>> byRun, EffectMethod method) {
    if (byRun.both(f -> f.values().stream().allMatch(v -> v == 0))) {
      return "0 in every run";
    }
    if (byRun.either(f -> f.values().stream().anyMatch(v -> !(v > 0)))) {
      return "a run's figure is 0, which has no logarithm";
    }
    if (byRun.either(f -> f.size() < 2)) {
      return "a side has a single run";
    }
    if (method instanceof PairedByKey paired && paired.pairs(byRun).size() < 2) {
      return "fewer than 2 complete pairs";
    }
    if (byRun.both(f -> f.values().stream().distinct().count() < 2)) {
      return "the runs show no spread to build an interval on";
    }
    return null;
  }

  /** The geometric mean of a side's figures (the arithmetic mean where one is 0); null for none. */
  static Double level(Map<String, Double> figures) {
    List<Double> values = List.copyOf(figures.values());
    if (values.isEmpty()) {
      return null;
    }
    if (values.stream().allMatch(v -> v > 0)) {
      return Math.exp(values.stream().mapToDouble(Math::log).average().orElseThrow());
    }
    return values.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
  }

  /** Whether θ's 95 % interval excludes no change. */
  public boolean moved() {
    return ratioCi95.bounded() && (ratioCi95.low() > 1 || ratioCi95.high() < 1);
  }

  /** Whether the figure is shown not to have moved: an interval that includes no change, or 0 everywhere. */
  public boolean unchanged() {
    return ratioCi95.bounded() ? !moved() : notMeasured == null && level.both(l -> l == 0);
  }

  /** The change in the figure's unit, {@code baseline × (θ − 1)}; null without θ. */
  public Double change() {
    return ratio == null ? null : level.baseline() * (ratio - 1);
  }

  /** {@link #change()}'s 95 % interval. */
  public Range changeCi95() {
    return ratio == null ? Range.UNBOUNDED : new Range(level.baseline() * (ratioCi95.low() - 1),
        level.baseline() * (ratioCi95.high() - 1));
  }

  /** {@code server CPU per operation}. */
  public String label() {
    return label(metric);
  }

  /** As a reader names the figure. */
  public static String label(ResourceMetric metric) {
    return switch (metric) {
      case SERVER_CPU_US_PER_OP -> "server CPU per operation";
      case SERVER_CS_PER_OP -> "server context switches per operation";
      case CLIENT_CPU_US_PER_OP -> "client CPU per operation";
      case CLIENT_CS_PER_OP -> "client context switches per operation";
      case WAL_BYTES_PER_OP -> "WAL bytes per operation";
      case WAL_RECORDS_PER_OP -> "WAL records per operation";
      case WAL_FPI_PER_OP -> "WAL full-page images per operation";
      case BLKS_HIT_PER_OP -> "blocks hit per operation";
      case BLKS_READ_PER_OP -> "blocks read per operation";
      case TEMP_BYTES_PER_OP -> "temp bytes per operation";
      case COMMITS_PER_OP -> "commits per operation";
      case ROLLBACKS_PER_OP -> "rollbacks per operation";
      case IO_READ_BYTES_PER_OP -> "I/O bytes read per operation (pg_stat_io)";
      case IO_WRITE_BYTES_PER_OP -> "I/O bytes written per operation (pg_stat_io)";
    };
  }

  /** A level in the figure's unit: {@code 52.7 µs}, {@code 354 bytes}, {@code 1.02}. */
  public String amount(Double value) {
    return value == null ? Format.DASH : Format.significant(value, 3) + unitSuffix();
  }

  /** {@code +6.2 µs [+4.0, +8.3]}; what stands in its place without an interval. */
  public String changeText() {
    if (notMeasured != null) {
      return notMeasured;
    }
    if (ratio == null) {
      return unchanged() ? "unchanged (" + noInterval + ")" : "no interval: " + noInterval;
    }
    Range ci = changeCi95();
    return signed(change()) + unitSuffix() + " [" + signed(ci.low()) + ", " + signed(ci.high()) + "]";
  }

  /** What the sentences say of it: its change when it moved, else {@code unchanged} or why it is not known. */
  public String sentencePart() {
    if (moved()) {
      return label() + " " + changeText();
    }
    if (unchanged()) {
      return label() + " unchanged";
    }
    return label() + (notMeasured != null ? " not measured" : " without an interval (" + noInterval + ")");
  }

  private String unitSuffix() {
    return switch (metric.unit()) {
      case "us" -> " µs";
      case "bytes" -> " bytes";
      case "blocks" -> " blocks";
      default -> "";
    };
  }

  /** Signed, three significant digits: {@code +6.21}, {@code -0.5}. */
  static String signed(double value) {
    String digits = Format.significant(Math.abs(value), 3);
    return (value < 0 && !"0".equals(digits) ? "-" : "+") + digits;
  }
}
