package dev.benchlake.loadgen.run;

import dev.benchlake.core.raw.TaskRecord;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Live counts of one step, updated by every worker without locks (striped adders, HdrHistogram's
 * {@link Recorder}), read once a second for the status line and at the end for the summary.
 *
 * <p>The latency histogram holds successful measured (non-warm-up) tasks only, from the intended
 * start; it has two significant digits (values are within 1 %): it serves the live display and
 * the printed summary, while exact statistics come from tasks.csv.
 */
public final class StepStats {
  static final long LOWEST_NS = 1_000;
  static final long HIGHEST_NS = 3_600_000_000_000L;

  private final LongAdder ok = new LongAdder();
  private final LongAdder errors = new LongAdder();
  private final LongAdder measuredOk = new LongAdder();
  private final LongAdder measuredErrors = new LongAdder();
  private final LongAccumulator firstMeasuredIntendedNs = new LongAccumulator(Math::min, Long.MAX_VALUE);
  private final LongAccumulator lastMeasuredEndNs = new LongAccumulator(Math::max, Long.MIN_VALUE);
  private final Map<String, LongAdder> errorsBySqlstate = new ConcurrentHashMap<>();
  private final Map<String, String> exampleBySqlstate = new ConcurrentHashMap<>();
  private final Recorder recorder = new Recorder(LOWEST_NS, HIGHEST_NS, 2);
  private final Histogram cumulative = new Histogram(LOWEST_NS, HIGHEST_NS, 2);
  private Histogram interval;

  /** Counts one finished task. */
  public void record(TaskRecord r) {
    if (r.ok()) {
      ok.increment();
    } else {
      errors.increment();
      String key = r.sqlstate().isEmpty() ? "none" : r.sqlstate();
      errorsBySqlstate.computeIfAbsent(key, k -> new LongAdder()).increment();
      exampleBySqlstate.putIfAbsent(key, r.error());
    }
    if (!r.warmup()) {
      firstMeasuredIntendedNs.accumulate(r.intendedStartNs());
      lastMeasuredEndNs.accumulate(r.endNs());
      if (r.ok()) {
        measuredOk.increment();
        recorder.recordValue(Math.max(LOWEST_NS, Math.min(HIGHEST_NS, r.latencyNs())));
      } else {
        measuredErrors.increment();
      }
    }
  }

  /** ok + errors (not counted apart: one striped add less per task). */
  public long attempts() {
    return ok.sum() + errors.sum();
  }

  public long ok() {
    return ok.sum();
  }

  public long errors() {
    return errors.sum();
  }

  public long measuredOk() {
    return measuredOk.sum();
  }

  public long measuredErrors() {
    return measuredErrors.sum();
  }

  /** Intended start of the first measured task, or {@link Long#MAX_VALUE} when none ran. */
  public long firstMeasuredIntendedNs() {
    return firstMeasuredIntendedNs.get();
  }

  /** End of the last measured task, or {@link Long#MIN_VALUE} when none ended. */
  public long lastMeasuredEndNs() {
    return lastMeasuredEndNs.get();
  }

  public Map<String, Long> errorsBySqlstate() {
    Map<String, Long> copy = new TreeMap<>();
    errorsBySqlstate.forEach((k, v) -> copy.put(k, v.sum()));
    return copy;
  }

  public Map<String, String> exampleErrorBySqlstate() {
    return new TreeMap<>(exampleBySqlstate);
  }

  /**
   * Moves what was recorded since the last call into the step's cumulative histogram and returns
   * it. Call from one thread (the status ticker).
   */
  public synchronized Histogram sampleCumulative() {
    interval = recorder.getIntervalHistogram(interval);
    cumulative.add(interval);
    return cumulative;
  }
}
