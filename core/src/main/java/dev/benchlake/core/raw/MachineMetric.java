package dev.benchlake.core.raw;

import java.math.BigDecimal;
import java.util.Optional;

/**
 * The whole-machine figures of a step that mytools records ({@code sb.met.*}: {@code an.sh}'s
 * averages of {@code iostat -kx 1} and {@code vmstat 1} over the step, the per-operation ones divided
 * by the step's operations per second; where a step has no sb.met, the same arithmetic over its raw
 * {@code sb.vm} and {@code sb.io} captures), the one definition of their {@code step_metrics} names and
 * units. They are named {@code machine_…} because they are: every process on the host counts in them,
 * the client and the server alike, and the I/O of the one device {@code run.sh} named; they are never
 * a side's figure like {@link ResourceMetric}'s {@code server_…} and {@code client_…}.
 *
 * <p>{@code cpu/o} is vmstat's {@code us + sy} (a percentage of all CPUs) divided by operations per
 * second: percent-seconds per operation ({@link #CPU_PCT_S_PER_OP}, as written). With the host's CPU
 * count (the {@code <n> CPUs} run.sh writes atop the step's {@code sb.o}) it is CPU time per operation,
 * {@code cpu/o × n × 10⁴} µs ({@link #cpuUsPerOp}), the unit of {@code server_cpu_us_per_op}. For
 * {@code scan} steps run.sh divides by thousands of rows scanned per second, not by scans: an
 * operation there is a thousand rows.
 */
public enum MachineMetric {
  READS_PER_S("r/s", "machine_reads_per_s", "1/s"),
  READ_MIB_PER_S("rMB/s", "machine_read_mib_per_s", "MiB/s"),
  WRITES_PER_S("w/s", "machine_writes_per_s", "1/s"),
  WRITE_MIB_PER_S("wMB/s", "machine_write_mib_per_s", "MiB/s"),
  READS_PER_OP("r/o", "machine_reads_per_op", "count"),
  READ_KIB_PER_OP("rKB/o", "machine_read_kib_per_op", "KiB"),
  WRITE_KIB_PER_OP("wKB/o", "machine_write_kib_per_op", "KiB"),
  CS_PER_S("cs/s", "machine_cs_per_s", "1/s"),
  CPU_BUSY_PCT("cpu/s", "machine_cpu_busy_pct", "%"),
  CS_PER_OP("cs/o", "machine_cs_per_op", "count"),
  CPU_PCT_S_PER_OP("cpu/o", "machine_cpu_pct_s_per_op", "%·s"),
  /** Not a column: {@link #CPU_PCT_S_PER_OP} with the host's CPU count ({@link #cpuUsPerOp}). */
  CPU_US_PER_OP(null, "machine_cpu_us_per_op", "us");

  private final String column;
  private final String metric;
  private final String unit;

  MachineMetric(String column, String metric, String unit) {
    this.column = column;
    this.metric = metric;
    this.unit = unit;
  }

  /** an.sh's column header, e.g. {@code cs/o}; null for a derived figure. */
  public String column() {
    return column;
  }

  /** The step_metrics name, e.g. {@code machine_cs_per_op}. */
  public String metric() {
    return metric;
  }

  public String unit() {
    return unit;
  }

  /** The figure an.sh writes under {@code column}; empty for its other columns ({@code samp}, {@code o/s}). */
  public static Optional<MachineMetric> ofColumn(String column) {
    for (MachineMetric m : values()) {
      if (column.equals(m.column)) {
        return Optional.of(m);
      }
    }
    return Optional.empty();
  }

  /**
   * CPU µs per operation from {@code cpu/o} as written and the host's CPU count: {@code cpu/o / 100 ×
   * cpus × 10⁶}, in decimal so that {@code 0.010736} on 2 CPUs is 214.72, not 214.72000000000003.
   */
  public static double cpuUsPerOp(BigDecimal cpuPctSPerOp, int cpus) {
    return cpuPctSPerOp.multiply(BigDecimal.valueOf(cpus * 10_000L)).doubleValue();
  }
}
