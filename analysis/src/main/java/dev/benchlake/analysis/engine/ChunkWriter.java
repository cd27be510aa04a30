package dev.benchlake.analysis.engine;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeMap;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.unsafe.types.UTF8String;
import scala.Tuple2;

/**
 * The map side of the sort: reads {@link EngineInput} rows (Spark's internal rows, no conversion
 * to objects), packs each successful latency with its run into a {@code long} and appends it to
 * the buffer of the partition its (step, bucket) belongs to; counts tasks and failures per run.
 * Full buffers leave as {@link Chunk.Values} while the input is still being read, so memory stays
 * bounded by {@code partitions ×} {@value #CHUNK_VALUES} values per step.
 */
final class ChunkWriter implements PairFlatMapFunction<Iterator<InternalRow>, Integer, Chunk> {
  private static final long serialVersionUID = 1L;
  static final int CHUNK_VALUES = 1 << 18;
  private static final int INITIAL_BUFFER = 256;

  private final RunPacking packing;
  private final int partitions;
  private final List<String> runIds;

  /** @param runIds the runs compared, a run's index being its position; rows of other runs are skipped */
  ChunkWriter(RunPacking packing, int partitions, List<String> runIds) {
    this.packing = packing;
    this.partitions = partitions;
    this.runIds = List.copyOf(runIds);
  }

  /** The partition that sorts the values of {@code bucket} of {@code step}. */
  static int partitionOf(String step, long bucket, int partitions) {
    return partitionOf(step.hashCode(), bucket, partitions);
  }

  /** A hash of (step, bucket), so that each bucket is sorted by one partition and load spreads. */
  private static int partitionOf(int stepHash, long bucket, int partitions) {
    long h = (stepHash * 0x9E3779B97F4A7C15L) ^ bucket;
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    return (int) Math.floorMod(h, (long) partitions);
  }

  @Override
  public Iterator<Tuple2<Integer, Chunk>> call(Iterator<InternalRow> rows) {
    return new Emitter(rows);
  }

  private final class Emitter implements Iterator<Tuple2<Integer, Chunk>> {
    private final Iterator<InternalRow> rows;
    private final ArrayDeque<Tuple2<Integer, Chunk>> ready = new ArrayDeque<>();
    private final Map<UTF8String, StepState> steps = new HashMap<>();
    private final List<StepState> stepOrder = new ArrayList<>();
    private final Map<UTF8String, Integer> runIndex = new HashMap<>();
    private final LastString lastStep = new LastString();
    private final LastString lastRun = new LastString();
    private StepState current;
    private int currentRun;
    private boolean finished;

    Emitter(Iterator<InternalRow> rows) {
      this.rows = rows;
      for (int i = 0; i < runIds.size(); i++) {
        runIndex.put(UTF8String.fromString(runIds.get(i)), i);
      }
    }

    @Override
    public boolean hasNext() {
      while (ready.isEmpty() && !finished) {
        advance();
      }
      return !ready.isEmpty();
    }

    @Override
    public Tuple2<Integer, Chunk> next() {
      if (!hasNext()) {
        throw new NoSuchElementException();
      }
      return ready.poll();
    }

    private void advance() {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        // A file holds one run's tasks, step after step: run and step change rarely, so each
        // costs a comparison with the last one, and a lookup only when it changes.
        UTF8String runId = row.getUTF8String(EngineInput.RUN_ORDINAL);
        if (!lastRun.is(runId)) {
          Integer index = runIndex.get(runId);
          currentRun = index == null ? -1 : index;
          lastRun.set(runId);
        }
        if (currentRun < 0) {
          continue;
        }
        UTF8String step = row.getUTF8String(EngineInput.STEP_ORDINAL);
        if (!lastStep.is(step)) {
          current = state(step);
          lastStep.set(step);
        }
        StepState state = current;
        int run = currentRun;
        CountsBuilder counts = state.counts[run];
        if (counts == null) {
          counts = new CountsBuilder(state.name, run);
          state.counts[run] = counts;
        }
        counts.tasks++;
        if (!row.getBoolean(EngineInput.OK_ORDINAL)) {
          String code = row.isNullAt(EngineInput.CODE_ORDINAL) ? "unknown" : row.getUTF8String(EngineInput.CODE_ORDINAL).toString();
          RunCounts.addError(counts.errors, code, 1);
          continue;
        }
        counts.ok++;
        if (!row.isNullAt(EngineInput.END_ORDINAL)) {
          long end = row.getLong(EngineInput.END_ORDINAL);
          counts.firstEndUs = Math.min(counts.firstEndUs, end);
          counts.lastEndUs = Math.max(counts.lastEndUs, end);
        }
        if (row.isNullAt(EngineInput.LATENCY_ORDINAL)) {
          continue;
        }
        long latency = row.getLong(EngineInput.LATENCY_ORDINAL);
        int partition = partitionOf(state.hash, LatencyBuckets.of(latency), partitions);
        if (state.append(partition, packing.pack(latency, run))) {
          ready.add(state.flush(partition));
          return;
        }
      }
      List<RunCounts> runCounts = new ArrayList<>();
      for (StepState state : stepOrder) {
        for (int partition = 0; partition < partitions; partition++) {
          if (state.fill[partition] > 0) {
            ready.add(state.flush(partition));
          }
        }
        for (CountsBuilder builder : state.counts) {
          if (builder != null) {
            runCounts.add(builder.build());
          }
        }
      }
      if (!runCounts.isEmpty()) {
        int home = Math.floorMod(TaskContext.getPartitionId(), partitions);
        ready.add(new Tuple2<>(home, new Chunk.Counts(runCounts)));
      }
      finished = true;
    }

    private StepState state(UTF8String step) {
      StepState state = steps.get(step);
      if (state == null) {
        UTF8String key = step.clone();
        state = new StepState(key.toString());
        steps.put(key, state);
        stepOrder.add(state);
      }
      return state;
    }
  }

  /**
   * The last string seen, compared cheaply: a different length or first 8 bytes
   * ({@link UTF8String#getPrefix}) settles most differences without a byte-wise comparison.
   */
  private static final class LastString {
    private UTF8String value;
    private long prefix;

    boolean is(UTF8String s) {
      return value != null && s.numBytes() == value.numBytes() && s.getPrefix() == prefix
          && (s.numBytes() <= 8 || s.equals(value));
    }

    void set(UTF8String s) {
      value = s.clone();
      prefix = value.getPrefix();
    }
  }

  /** One step's buffers (one per partition, growing up to a chunk) and per-run counts. */
  private final class StepState {
    final String name;
    final int hash;
    final long[][] buffers = new long[partitions][];
    final int[] fill = new int[partitions];
    final CountsBuilder[] counts = new CountsBuilder[runIds.size()];

    StepState(String name) {
      this.name = name;
      this.hash = name.hashCode();
      for (int p = 0; p < partitions; p++) {
        buffers[p] = new long[INITIAL_BUFFER];
      }
    }

    /** Appends; true when the partition's buffer is a full chunk. */
    boolean append(int partition, long packed) {
      int at = fill[partition]++;
      long[] buffer = buffers[partition];
      if (at == buffer.length) {
        // Buffers start small (many steps × partitions) and grow up to a chunk.
        buffer = Arrays.copyOf(buffer, 2 * at);
        buffers[partition] = buffer;
      }
      buffer[at] = packed;
      return at + 1 == CHUNK_VALUES;
    }

    Tuple2<Integer, Chunk> flush(int partition) {
      int length = fill[partition];
      long[] values;
      if (length == buffers[partition].length) {
        values = buffers[partition];
        buffers[partition] = new long[INITIAL_BUFFER];
      } else {
        values = Arrays.copyOf(buffers[partition], length);
      }
      fill[partition] = 0;
      return new Tuple2<>(partition, new Chunk.Values(name, values));
    }
  }

  private static final class CountsBuilder {
    final String step;
    final int run;
    long tasks;
    long ok;
    long firstEndUs = Long.MAX_VALUE;
    long lastEndUs = Long.MIN_VALUE;
    final TreeMap<String, Long> errors = new TreeMap<>();

    CountsBuilder(String step, int run) {
      this.step = step;
      this.run = run;
    }

    RunCounts build() {
      return new RunCounts(step, run, tasks, ok, firstEndUs, lastEndUs, errors);
    }
  }
}
