package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.MachineMetric;
import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.Numerals;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.warehouse.RejectType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A mytools {@code sb.io.<sfx>.dop<T>}: {@code iostat -y -kx 1} over the step ({@code -y}: no report
 * since boot), read where the step has no {@code sb.met} into the iostat half of what an.sh writes
 * there: {@code r/s}, {@code rMB/s}, {@code w/s}, {@code wMB/s}, {@code r/o}, {@code rKB/o},
 * {@code wKB/o} ({@link MachineMetric}), with an.sh's arithmetic: the mean of each report's
 * {@code r/s}, {@code rkB/s}, {@code w/s} and {@code wkB/s} of one device (kB ÷ 1024 for MB), divided
 * by the step's operations per second for the {@code …/o} figures.
 *
 * <p>an.sh takes the columns' places from the first {@code Device} header (three sysstat orders) and
 * averages every line that contains the device name run.sh was given. That name is in no file of the
 * tree, so here the device is the capture's one device, {@code loop}, {@code ram}, {@code sr} and
 * {@code zram} devices aside (snap images, RAM disks, optical drives, compressed swap: never where
 * run.sh's database is); a capture with two others gives no figures, which the first row of the
 * second says. Columns are found by name under each header ({@code Device} or {@code Device:}).
 *
 * <p>A row is accepted whole or rejected whole, and then is no sample: a field count other than its
 * header's, a field that is no finite number or is negative, a sum beyond what a double holds. The
 * banner ({@code Linux …}), the {@code avg-cpu:} lines (an.sh does not read them), headers and blank
 * lines are metadata; the figures are given on the device's last row.
 */
final class MytoolsIostatParser implements DocumentParser {
  private static final long serialVersionUID = 1L;
  private static final String BANNER = "Linux";
  private static final String CPU_TITLE = "avg-cpu:";
  private static final List<String> READ = List.of("r/s", "rkB/s", "w/s", "wkB/s");
  private static final Pattern NOT_A_DISK = Pattern.compile("(loop|ram|sr|zram)\\d+");

  private final String step;
  private final double opsPerS;

  /**
   * @param step the step of the sb.o beside it
   * @param opsPerS the step's queries per second (the sb.o's, as run.sh passes them to an.sh), above 0
   */
  MytoolsIostatParser(String step, double opsPerS) {
    this.step = step;
    this.opsPerS = opsPerS;
  }

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  /** One device's accepted rows: their sums in {@link #READ}'s order. */
  private static final class Device {
    final double[] sums = new double[READ.size()];
    final List<Integer> rows = new ArrayList<>();
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    CaptureAverages verdicts = new CaptureAverages(lines);
    Map<String, Device> devices = new LinkedHashMap<>();
    List<String> header = null;
    boolean first = true;
    boolean cpuFigures = false;
    for (int i = 0; i < lines.size(); i++) {
      String t = lines.get(i).strip();
      if (t.isEmpty()) {
        cpuFigures = false;
        continue;
      }
      boolean wasFirst = first;
      first = false;
      String[] fields = t.split("\\s+");
      if (fields[0].equals(CPU_TITLE)) {
        cpuFigures = true;
      } else if (cpuFigures) {
        cpuFigures = false;
      } else if (fields[0].equals("Device") || fields[0].equals("Device:")) {
        header = Arrays.asList(fields);
        if (!header.containsAll(READ)) {
          header = null;
          verdicts.reject(i, RejectType.HEADER, null, "iostat's columns without r/s, rkB/s, w/s and wkB/s (iostat -kx's):"
              + " an unknown layout, whose rows are not read");
        }
      } else if (wasFirst) {
        // iostat's banner (kernel, host, date, CPUs) is metadata.
        if (!fields[0].equals(BANNER)) {
          verdicts.reject(i, RejectType.HEADER, null, "not an iostat capture: its first line is not iostat's banner"
              + " ('Linux …')");
        }
      } else if (header == null) {
        verdicts.reject(i, RejectType.UNKNOWN_LINE, null, "not under an iostat device header ('Device …')");
      } else if (fields.length != header.size()) {
        verdicts.reject(i, RejectType.FIELD_COUNT, null, fields.length + " fields, but iostat's header has "
            + header.size());
      } else {
        row(i, fields, header, devices.computeIfAbsent(fields[0], d -> new Device()), verdicts);
      }
    }
    List<String> disks = devices.entrySet().stream().filter(e -> !e.getValue().rows.isEmpty())
        .map(Map.Entry::getKey).filter(d -> !NOT_A_DISK.matcher(d).matches()).toList();
    if (disks.size() > 1) {
      verdicts.reject(devices.get(disks.get(1)).rows.get(0), RejectType.UNKNOWN_LINE, null, "a second device ("
          + String.join(", ", disks) + "): the tree does not name the one run.sh gave an.sh, so this capture gives"
          + " no I/O figures");
    } else if (disks.size() == 1) {
      Device d = devices.get(disks.get(0));
      int n = d.rows.size();
      Map<MachineMetric, Double> values = new EnumMap<>(MachineMetric.class);
      values.put(MachineMetric.READS_PER_S, d.sums[0] / n);
      values.put(MachineMetric.READ_MIB_PER_S, d.sums[1] / n / 1024.0);
      values.put(MachineMetric.WRITES_PER_S, d.sums[2] / n);
      values.put(MachineMetric.WRITE_MIB_PER_S, d.sums[3] / n / 1024.0);
      values.put(MachineMetric.READS_PER_OP, d.sums[0] / n / opsPerS);
      values.put(MachineMetric.READ_KIB_PER_OP, d.sums[1] / n / opsPerS);
      values.put(MachineMetric.WRITE_KIB_PER_OP, d.sums[3] / n / opsPerS);
      verdicts.figures(d.rows.get(n - 1), values);
    }
    verdicts.give(step, sink);
  }

  /** Adds the row to its device's sums, or notes its reject. */
  private static void row(int index, String[] fields, List<String> header, Device device, CaptureAverages verdicts) {
    double[] values = new double[READ.size()];
    for (int k = 1; k < fields.length; k++) {
      String column = header.get(k);
      Numerals.Read read = Numerals.decimal(fields[k]);
      String why = !read.ok() ? read.why() : read.value() < 0 ? "is negative: iostat's rates never are" : null;
      if (why != null) {
        verdicts.reject(index, read.ok() ? RejectType.OUT_OF_RANGE : read.fault(), column, column + " "
            + RawLines.quote(fields[k], 40) + " " + why);
        return;
      }
      int r = READ.indexOf(column);
      if (r >= 0) {
        values[r] = read.value();
        if (!Double.isFinite(device.sums[r] + values[r])) {
          verdicts.reject(index, RejectType.OUT_OF_RANGE, column, column + " " + RawLines.quote(fields[k], 40)
              + " takes the device's sum beyond what a double holds");
          return;
        }
      }
    }
    for (int r = 0; r < values.length; r++) {
      device.sums[r] += values[r];
    }
    device.rows.add(index);
  }
}
