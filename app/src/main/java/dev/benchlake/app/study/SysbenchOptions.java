package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.core.cli.DurationConverter;
import dev.benchlake.loadgen.StepTimes;
import dev.benchlake.loadgen.db.BetweenSteps;
import java.time.Duration;
import java.util.List;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

/**
 * The sysbench-like workload of a study's runs, as {@code study ab} and {@code study versions} take
 * it: declared once, each command's defaults from its {@link StudyDefaults}.
 */
public final class SysbenchOptions {
  /** The connections per side of an interleaved or sequential study on {@code auto}, where a side has the machine. */
  static final int UNPAIRED_CLIENTS = 4;

  @Option(names = "--steps", paramLabel = "STEP", split = ",",
      description = "loadgen sysbench steps (default: ${DEFAULT-VALUE}; mytools is the version study's whole sequence, "
          + "mytools-2023 the 43 steps it ran in 2023, or name some of its <testType>_range=<R> steps).")
  List<String> steps;

  @Option(names = "--clients", paramLabel = "N|auto", converter = ClientsConverter.class,
      description = "Connections per side: a number, or auto: in a duet one per CPU of a side, the smaller if they "
          + "differ, so that no query queues for a CPU; else " + UNPAIRED_CLIENTS + " (default: ${DEFAULT-VALUE}).")
  Integer clients;

  @Option(names = "--duration", paramLabel = "DURATION", converter = DurationConverter.Positive.class,
      description = "Measured time of each step (default: ${DEFAULT-VALUE}).")
  Duration duration;

  @Mixin
  StepTimes times = new StepTimes();

  @Option(names = "--between-steps", paramLabel = "WHAT", converter = BetweenSteps.Converter.class,
      description = "What each side runs on its tables between steps, outside the measured windows (both sides then "
          + "start the next step together): none (maintenance left to each server's autovacuum and checkpoints, which "
          + "fire at moments of their own), analyze, vacuum-analyze or checkpoint (default: ${DEFAULT-VALUE}; "
          + "docs/designs.md).")
  BetweenSteps betweenSteps;

  @Option(names = "--tables", paramLabel = "N", description = "sbtest tables (default: ${DEFAULT-VALUE}).")
  int tables;

  @Option(names = "--table-size", paramLabel = "ROWS", description = "Rows per table (default: ${DEFAULT-VALUE}).")
  int tableSize;

  /** The workload, its clients resolved for {@code cpus} (a duet's sets, else null). */
  public Workload.Sysbench workload(DuetCpus cpus) {
    return new Workload.Sysbench(steps, tables, tableSize, clients(clients, cpus), duration, times.readDuration(),
        times.writeDuration(), times.warmup(), betweenSteps);
  }

  /**
   * {@code --clients}, or on {@code auto} (null) a duet's side's CPUs. With more, a side's clients
   * and backends queue for its CPUs and where a query waits (before it is sent, unmeasured, or
   * after) is the scheduler's choice: on one CPU, point-select's median with 4 clients flipped
   * between two regimes from round to round at the same throughput (docs/designs.md).
   */
  static int clients(Integer given, DuetCpus cpus) {
    if (given != null) {
      return given;
    }
    return cpus == null ? UNPAIRED_CLIENTS : Math.min(cpus.one().size(), cpus.two().size());
  }

  /** A whole number, or {@code auto} (null). */
  static final class ClientsConverter implements CommandLine.ITypeConverter<Integer> {
    @Override
    public Integer convert(String value) {
      if (value.strip().equals("auto")) {
        return null;
      }
      try {
        return Integer.parseInt(value.strip());
      } catch (NumberFormatException e) {
        throw new CommandLine.TypeConversionException("'" + value + "' is not a whole number or auto");
      }
    }
  }
}
