package dev.benchlake.ingest.format;

import dev.benchlake.core.raw.MachineMetric;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.warehouse.RejectType;
import java.math.BigDecimal;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The verdicts of a vmstat or iostat capture whose figures are known only at its end (an.sh's
 * averages over every sample): rejects are noted as the lines are read, and all verdicts are given
 * afterwards in line order, the figures on the line of the last sample they average. Every other line
 * is metadata.
 */
final class CaptureAverages {
  private record Reject(RejectType type, String column, String reason) {}

  private final List<String> lines;
  private final Map<Integer, Reject> rejects = new HashMap<>();
  private final Map<MachineMetric, Double> figures = new EnumMap<>(MachineMetric.class);
  private int figuresIndex = -1;

  CaptureAverages(List<String> lines) {
    this.lines = lines;
  }

  void reject(int index, RejectType type, String column, String reason) {
    rejects.put(index, new Reject(type, column, reason));
  }

  /** The figures, carried by line {@code index} (0-based). */
  void figures(int index, Map<MachineMetric, Double> values) {
    figuresIndex = index;
    figures.putAll(values);
  }

  /**
   * an.sh's {@code cpu/o} with the host's CPU count, as {@link MachineMetric#cpuUsPerOp}; nothing for
   * 0 CPUs (not known).
   */
  static void addCpuUs(Map<MachineMetric, Double> values, int cpus) {
    Double pctS = values.get(MachineMetric.CPU_PCT_S_PER_OP);
    if (pctS != null && cpus > 0) {
      values.put(MachineMetric.CPU_US_PER_OP, MachineMetric.cpuUsPerOp(BigDecimal.valueOf(pctS), cpus));
    }
  }

  void give(String step, ParseSink sink) {
    for (int i = 0; i < lines.size(); i++) {
      Reject r = rejects.get(i);
      if (r != null) {
        sink.reject(i + 1, lines.get(i), r.type(), r.column(), r.reason());
      } else if (i == figuresIndex && !figures.isEmpty()) {
        long lineNo = i + 1;
        figures.forEach((m, v) -> sink.metric(lineNo, ParsedMetric.whole(step, m.metric(), v, m.unit())));
      } else {
        sink.metadata(i + 1);
      }
    }
  }
}
