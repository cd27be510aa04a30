package dev.benchlake.core.raw;

import java.util.List;
import java.util.OptionalDouble;

/**
 * The per-operation resource figures of a step, the one definition of their names, units and
 * counters: ingest stores each as a whole-step row of the warehouse's {@code step_metrics}. A
 * figure is the sum of its counters' differences over the step's window ({@link StepResources}:
 * the measured window, or the whole step in older manifests) divided by the window's completed
 * tasks, in {@link #unit()}; it is absent when any of its counters was
 * not measured or no task completed, never zero in their place.
 *
 * <p>Counters (the {@code name} of a {@link ResourceCounter}): the server's from its process tree
 * (postmaster and children alive at a reading, plus the postmaster's {@code cutime}/{@code cstime}
 * for children that exited), the client's from this JVM ({@code /proc/self}); PostgreSQL's from
 * {@code pg_stat_wal} (14+), {@code pg_stat_database} of the run's database and {@code pg_stat_io}
 * (16+), which are cluster-wide or database-wide: the snapshots' own queries count in them (a few
 * per step).
 */
public enum ResourceMetric {
  SERVER_CPU_US_PER_OP("server_cpu_us_per_op", "us", 1e-3, Counter.SERVER_CPU_USER_NS, Counter.SERVER_CPU_SYSTEM_NS),
  SERVER_CS_PER_OP("server_cs_per_op", "count", 1, Counter.SERVER_CS_VOLUNTARY, Counter.SERVER_CS_INVOLUNTARY),
  CLIENT_CPU_US_PER_OP("client_cpu_us_per_op", "us", 1e-3, Counter.CLIENT_CPU_USER_NS, Counter.CLIENT_CPU_SYSTEM_NS),
  CLIENT_CS_PER_OP("client_cs_per_op", "count", 1, Counter.CLIENT_CS_VOLUNTARY, Counter.CLIENT_CS_INVOLUNTARY),
  WAL_BYTES_PER_OP("wal_bytes_per_op", "bytes", 1, Counter.WAL_BYTES),
  WAL_RECORDS_PER_OP("wal_records_per_op", "count", 1, Counter.WAL_RECORDS),
  WAL_FPI_PER_OP("wal_fpi_per_op", "count", 1, Counter.WAL_FPI),
  BLKS_HIT_PER_OP("blks_hit_per_op", "blocks", 1, Counter.BLKS_HIT),
  BLKS_READ_PER_OP("blks_read_per_op", "blocks", 1, Counter.BLKS_READ),
  TEMP_BYTES_PER_OP("temp_bytes_per_op", "bytes", 1, Counter.TEMP_BYTES),
  COMMITS_PER_OP("commits_per_op", "count", 1, Counter.XACT_COMMIT),
  ROLLBACKS_PER_OP("rollbacks_per_op", "count", 1, Counter.XACT_ROLLBACK),
  IO_READ_BYTES_PER_OP("io_read_bytes_per_op", "bytes", 1, Counter.IO_READ_BYTES),
  IO_WRITE_BYTES_PER_OP("io_write_bytes_per_op", "bytes", 1, Counter.IO_WRITE_BYTES);

  /** The counters' names and units, as loadgen writes them. */
  public static final class Counter {
    public static final String SERVER_CPU_USER_NS = "server_cpu_user_ns";
    public static final String SERVER_CPU_SYSTEM_NS = "server_cpu_system_ns";
    public static final String SERVER_CS_VOLUNTARY = "server_cs_voluntary";
    public static final String SERVER_CS_INVOLUNTARY = "server_cs_involuntary";
    public static final String CLIENT_CPU_USER_NS = "client_cpu_user_ns";
    public static final String CLIENT_CPU_SYSTEM_NS = "client_cpu_system_ns";
    public static final String CLIENT_CS_VOLUNTARY = "client_cs_voluntary";
    public static final String CLIENT_CS_INVOLUNTARY = "client_cs_involuntary";
    public static final String WAL_RECORDS = "wal_records";
    public static final String WAL_FPI = "wal_fpi";
    public static final String WAL_BYTES = "wal_bytes";
    public static final String BLKS_HIT = "blks_hit";
    public static final String BLKS_READ = "blks_read";
    public static final String TEMP_BYTES = "temp_bytes";
    public static final String XACT_COMMIT = "xact_commit";
    public static final String XACT_ROLLBACK = "xact_rollback";
    public static final String IO_READ_BYTES = "io_read_bytes";
    public static final String IO_WRITE_BYTES = "io_write_bytes";
    /**
     * The whole machine's busy CPU time (every CPU, /proc/stat): no figure per operation of its
     * own; a report's scope subtracts the runs' own CPU time over the window from it to tell how
     * much of the machine other work took.
     */
    public static final String MACHINE_CPU_BUSY_NS = "machine_cpu_busy_ns";
    /** The whole machine's CPU time in all, busy and idle: the window's length times its CPUs. */
    public static final String MACHINE_CPU_NS = "machine_cpu_ns";

    private Counter() {}
  }

  private final String metric;
  private final String unit;
  private final double scale;
  private final List<String> counters;

  ResourceMetric(String metric, String unit, double scale, String... counters) {
    this.metric = metric;
    this.unit = unit;
    this.scale = scale;
    this.counters = List.of(counters);
  }

  /** The step_metrics name, e.g. {@code server_cpu_us_per_op}. */
  public String metric() {
    return metric;
  }

  /** The unit of one operation's figure, e.g. {@code us}. */
  public String unit() {
    return unit;
  }

  /** The counters summed, before dividing by the tasks. */
  public List<String> counters() {
    return counters;
  }

  /** This figure of the step, or empty when a counter was not measured or no task completed. */
  public OptionalDouble perOperation(StepResources step) {
    if (step.tasks() <= 0) {
      return OptionalDouble.empty();
    }
    double sum = 0;
    for (String name : counters) {
      ResourceCounter c = step.counter(name);
      if (c == null) {
        return OptionalDouble.empty();
      }
      sum += c.delta();
    }
    return OptionalDouble.of(sum * scale / step.tasks());
  }
}
