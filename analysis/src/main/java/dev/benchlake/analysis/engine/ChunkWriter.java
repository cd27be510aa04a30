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
import org.apache.spark.sql.execution.vectorized.WritableColumnVector;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;
import org.apache.spark.unsafe.types.UTF8String;
import scala.Tuple2;

/**
 * The map side of the sort: reads {@link EngineInput} rows (Spark's internal rows, no conversion
 * to objects), or the raw tasks' column batches ({@link #overBatches}, the same filters and
 * projection done here), keeps the runs it was given, packs each successful latency with its run into a {@code long} and appends it to
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

  /** The same map side over column batches of the warehouse's tasks ({@link TaskBatches}). */
  PairFlatMapFunction<Iterator<ColumnarBatch>, Integer, Chunk> overBatches(TaskBatches.Columns columns) {
    return batches -> new Emitter(null, batches, columns);
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
    return new Emitter(rows, null, null);
  }

  private final class Emitter implements Iterator<Tuple2<Integer, Chunk>> {
    private final Iterator<InternalRow> rows;
    private final Iterator<ColumnarBatch> batches;
    private final TaskBatches.Columns columns;
    private ColumnarBatch batch;
    private int batchRow;
    private final BatchStrings batchRuns = new BatchStrings();
    private final BatchStrings batchSteps = new BatchStrings();
    private final ArrayDeque<Tuple2<Integer, Chunk>> ready = new ArrayDeque<>();
    private final Map<UTF8String, StepState> steps = new HashMap<>();
    private final List<StepState> stepOrder = new ArrayList<>();
    private final Map<UTF8String, Integer> runIndex = new HashMap<>();
    private final LastString lastStep = new LastString();
    private final LastString lastRun = new LastString();
    private StepState current;
    private int currentRun;
    private boolean finished;

    Emitter(Iterator<InternalRow> rows, Iterator<ColumnarBatch> batches, TaskBatches.Columns columns) {
      this.rows = rows;
      this.batches = batches;
      this.columns = columns;
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
      if (rows != null ? advanceRows() : advanceBatches()) {
        return;
      }
      finish();
    }

    /** Reads rows until a chunk is ready (true) or the input ends (false). */
    private boolean advanceRows() {
      while (rows.hasNext()) {
        InternalRow row = rows.next();
        // A file holds one run's tasks, step after step: run and step change rarely, so each
        // costs a comparison with the last one, and a lookup only when it changes.
        UTF8String runId = row.getUTF8String(EngineInput.RUN_ORDINAL);
        if (!lastRun.is(runId)) {
          currentRun = runIndexOf(runId);
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
        boolean ok = row.getBoolean(EngineInput.OK_ORDINAL);
        if (task(current, currentRun, ok,
            ok ? null : row.isNullAt(EngineInput.CODE_ORDINAL) ? "unknown" : row.getUTF8String(EngineInput.CODE_ORDINAL).toString(),
            !row.isNullAt(EngineInput.END_ORDINAL), row.isNullAt(EngineInput.END_ORDINAL) ? 0 : row.getLong(EngineInput.END_ORDINAL),
            !row.isNullAt(EngineInput.LATENCY_ORDINAL),
            row.isNullAt(EngineInput.LATENCY_ORDINAL) ? 0 : row.getLong(EngineInput.LATENCY_ORDINAL))) {
          return true;
        }
      }
      return false;
    }

    /**
     * Reads column batches of the raw tasks until a chunk is ready (true) or the input ends
     * (false): what {@link WarehouseTasks#input}'s projection and filters do, without making a
     * row of each task. Strings that Parquet stored with a dictionary are compared by id.
     */
    private boolean advanceBatches() {
      TaskBatches.Columns c = columns;
      while (true) {
        if (batch == null || batchRow >= batch.numRows()) {
          if (!batches.hasNext()) {
            return false;
          }
          batch = batches.next();
          batchRow = 0;
          batchRuns.bind(batch.column(c.runId()));
          batchSteps.bind(batch.column(c.step()));
        }
        ColumnVector warmup = batch.column(c.warmup());
        ColumnVector okColumn = batch.column(c.ok());
        ColumnVector end = batch.column(c.endTs());
        ColumnVector latency = batch.column(c.latencyNs());
        int n = batch.numRows();
        while (batchRow < n) {
          int i = batchRow++;
          // where not warmup (a null is not true either), and only the runs and steps asked for.
          if (warmup.isNullAt(i) || warmup.getBoolean(i)) {
            continue;
          }
          if (batchRuns.changed(i)) {
            currentRun = runIndexOf(batchRuns.value(i));
          }
          if (currentRun < 0) {
            continue;
          }
          if (batchSteps.changed(i)) {
            UTF8String step = batchSteps.value(i);
            current = step != null && (c.steps().isEmpty() || c.steps().contains(step.toString())) ? state(step) : null;
          }
          if (current == null) {
            continue;
          }
          boolean ok = !okColumn.isNullAt(i) && okColumn.getBoolean(i);
          if (task(current, currentRun, ok, ok ? null : okColumn.isNullAt(i) ? "unknown" : errorCode(batch, c, i),
              ok && !end.isNullAt(i), ok && !end.isNullAt(i) ? end.getLong(i) : 0,
              !latency.isNullAt(i), latency.isNullAt(i) ? 0 : latency.getLong(i))) {
            return true;
          }
        }
      }
    }

    private int runIndexOf(UTF8String runId) {
      Integer index = runIndex.get(runId);
      return index == null ? -1 : index;
    }

    /** One task; true when it filled a chunk, now ready. */
    private boolean task(StepState state, int run, boolean ok, String errorCode, boolean hasEnd, long endUs,
        boolean hasLatency, long latency) {
      CountsBuilder counts = state.counts[run];
      if (counts == null) {
        counts = new CountsBuilder(state.name, run);
        state.counts[run] = counts;
      }
      counts.tasks++;
      if (!ok) {
        RunCounts.addError(counts.errors, errorCode, 1);
        return false;
      }
      counts.ok++;
      if (hasEnd) {
        counts.firstEndUs = Math.min(counts.firstEndUs, endUs);
        counts.lastEndUs = Math.max(counts.lastEndUs, endUs);
      }
      if (!hasLatency) {
        return false;
      }
      int partition = partitionOf(state.hash, LatencyBuckets.of(latency), partitions);
      if (state.append(partition, packing.pack(latency, run))) {
        ready.add(state.flush(partition));
        return true;
      }
      return false;
    }

    private void finish() {
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

  private static final UTF8String NEWLINE = UTF8String.fromString("\n");

  /** {@code coalesce(sqlstate, the error's first line cut to 120 characters, 'unknown')}, as {@link WarehouseTasks#input}. */
  private static String errorCode(ColumnarBatch batch, TaskBatches.Columns c, int i) {
    ColumnVector sqlstate = batch.column(c.sqlstate());
    if (!sqlstate.isNullAt(i)) {
      return sqlstate.getUTF8String(i).toString();
    }
    ColumnVector error = batch.column(c.error());
    if (!error.isNullAt(i)) {
      return error.getUTF8String(i).subStringIndex(NEWLINE, 1).substringSQL(1, WarehouseTasks.ERROR_MESSAGE_CHARS).toString();
    }
    return "unknown";
  }

  /**
   * A string column of one batch, read so that a run of equal values costs little: by dictionary
   * id when Parquet's dictionary stayed on the vector (then one batch has one dictionary), else by
   * comparison with the last value.
   */
  private static final class BatchStrings {
    private ColumnVector vector;
    private WritableColumnVector dictionaryIds;
    private int lastId;
    private final LastString last = new LastString();

    void bind(ColumnVector v) {
      vector = v;
      dictionaryIds = v instanceof WritableColumnVector w && w.hasDictionary() ? w.getDictionaryIds() : null;
      lastId = -1;
      last.clear();
    }

    /** Whether row {@code i} differs from the last row asked about (the first always does). */
    boolean changed(int i) {
      if (dictionaryIds != null) {
        int id = dictionaryIds.getInt(i);
        boolean changed = id != lastId;
        lastId = id;
        return changed;
      }
      UTF8String s = vector.getUTF8String(i);
      if (s == null) {
        last.clear();
        return true;
      }
      if (last.is(s)) {
        return false;
      }
      last.set(s);
      return true;
    }

    UTF8String value(int i) {
      return vector.getUTF8String(i);
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

    void clear() {
      value = null;
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
