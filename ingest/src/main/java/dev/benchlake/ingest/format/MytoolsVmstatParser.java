package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.MachineMetric;
import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.warehouse.RejectType;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A mytools {@code sb.vm.<sfx>.dop<T>}: {@code vmstat 1} over the step (run.sh starts it before
 * sysbench and kills it after), read where the step has no {@code sb.met} into the vmstat half of what
 * an.sh writes there: {@code cs/s}, {@code cpu/s}, {@code cs/o}, {@code cpu/o} ({@link MachineMetric}),
 * with an.sh's arithmetic, so that a figure derived here and one an.sh printed are one series:
 *
 * <ul>
 *   <li>an.sh drops each line holding {@code swpd} (the column header), then the first line left (the
 *       first {@code procs …} title); every other line is a sample of {@code cs} and {@code us + sy},
 *       averaged, and divided by the step's operations per second for the {@code …/o} figures.
 *   <li>So the first row, vmstat's averages since boot, is a sample, and so is each title vmstat
 *       repeats (every 21 rows when it writes to a file), as zeros: on a long step an.sh's {@code cs/s}
 *       and {@code cpu/s} are 1/22 (4.5 %) below the rows' mean. The ratio of two such figures, which
 *       is what compare and trend show, does not move. Done here too: the same name means the same figure.
 * </ul>
 *
 * <p>Columns are found by name in the header ({@code cs}, {@code us}, {@code sy}: an.sh's fields 12 to
 * 14 in every procps layout). A row is accepted whole or rejected whole, and then is no sample: a field
 * count other than its header's, a field that is no integer or is negative, {@code us} or {@code sy}
 * above 100. The figures are given on the last sample row; every other line is metadata.
 */
final class MytoolsVmstatParser implements DocumentParser {
  private static final long serialVersionUID = 1L;
  private static final String TITLE = "procs";
  /** What an.sh drops the column header by. */
  private static final String HEADER_MARK = "swpd";
  private static final List<String> READ = List.of("cs", "us", "sy");
  private static final Set<String> PERCENT = Set.of("us", "sy");

  private final String step;
  private final double opsPerS;
  private final int cpus;

  /**
   * @param step the step of the sb.o beside it
   * @param opsPerS the step's queries per second (the sb.o's, as run.sh passes them to an.sh), above 0
   * @param cpus the host's CPUs, or 0 when not known: then no {@code machine_cpu_us_per_op}
   */
  MytoolsVmstatParser(String step, double opsPerS, int cpus) {
    this.step = step;
    this.opsPerS = opsPerS;
    this.cpus = cpus;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    CaptureAverages verdicts = new CaptureAverages(lines);
    List<String> header = null;
    boolean firstTitleSeen = false;
    boolean first = true;
    long samples = 0;
    double cs = 0;
    double cpu = 0;
    int last = -1;
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i);
      String t = line.strip();
      if (t.isEmpty()) {
        continue;
      }
      boolean wasFirst = first;
      first = false;
      String[] fields = t.split("\\s+");
      if (fields[0].equals(TITLE)) {
        // an.sh's awk skips its first line left, the first title; every later one is a sample of zeros.
        samples += firstTitleSeen ? 1 : 0;
        firstTitleSeen = true;
      } else if (Arrays.asList(fields).contains(HEADER_MARK)) {
        header = Arrays.asList(fields);
        if (!header.containsAll(READ)) {
          header = null;
          verdicts.reject(i, RejectType.HEADER, null, "vmstat's columns without cs, us and sy (an.sh's fields 12 to"
              + " 14): an unknown layout, whose rows are not read");
        }
      } else if (wasFirst) {
        verdicts.reject(i, RejectType.HEADER, null, "not a vmstat capture: its first line is not vmstat's title"
            + " ('procs …')");
      } else if (header == null) {
        verdicts.reject(i, RejectType.UNKNOWN_LINE, null, "not under a vmstat column header (' r  b   swpd …')");
      } else if (fields.length != header.size()) {
        verdicts.reject(i, RejectType.FIELD_COUNT, null, fields.length + " fields, but vmstat's header has "
            + header.size());
      } else {
        long[] read = sample(i, fields, header, verdicts);
        if (read != null) {
          samples++;
          cs += read[0];
          cpu += read[1] + read[2];
          last = i;
        }
      }
    }
    if (last >= 0) {
      Map<MachineMetric, Double> values = new EnumMap<>(MachineMetric.class);
      values.put(MachineMetric.CS_PER_S, cs / samples);
      values.put(MachineMetric.CPU_BUSY_PCT, cpu / samples);
      values.put(MachineMetric.CS_PER_OP, cs / samples / opsPerS);
      values.put(MachineMetric.CPU_PCT_S_PER_OP, cpu / samples / opsPerS);
      CaptureAverages.addCpuUs(values, cpus);
      verdicts.figures(last, values);
    }
    verdicts.give(step, sink);
  }

  /** The row's cs, us and sy, or null when it is rejected (noted in {@code verdicts}). */
  private static long[] sample(int index, String[] fields, List<String> header, CaptureAverages verdicts) {
    for (int k = 0; k < fields.length; k++) {
      String column = header.get(k);
      Numerals.IntegerRead read = Numerals.integer(fields[k]);
      String why = !read.ok() ? read.why() : read.value() < 0 ? "is negative: vmstat counts and shares never are"
          : PERCENT.contains(column) && read.value() > 100 ? "is above 100 %" : null;
      if (why != null) {
        verdicts.reject(index, read.ok() ? RejectType.OUT_OF_RANGE : read.fault(), column, column + " "
            + RawLines.quote(fields[k], 40) + " " + why);
        return null;
      }
    }
    long[] values = new long[READ.size()];
    for (int r = 0; r < READ.size(); r++) {
      values[r] = Long.parseLong(fields[header.indexOf(READ.get(r))]);
    }
    return values;
  }
}
