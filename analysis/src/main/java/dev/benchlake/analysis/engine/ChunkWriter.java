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
  private final int runs;

  /** @param runs how many runs are compared (run indexes are below) */
  ChunkWriter(RunPacking packing, int partitions, int runs) {
    this.packing = packing;
    this.partitions = partitions;
    this.runs = runs;
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
    private final Map<UTF8String, Integer> stepIds = new HashMap<>();
    private final List<String> steps = new ArrayList<>();
    private final List<Integer> stepHashes = new ArrayList<>();
    private final List<long[][]> buffers = new ArrayList<>();
    private final List<int[]> fill = new ArrayList<>();
    private final List<CountsBuilder[]> counts = new ArrayList<>();
    private UTF8String lastStep;
    private int lastStepId = -1;
    private boolean finished;

    Emitter(Iterator<InternalRow> rows) {
      this.rows = rows;
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
        int stepId = stepId(row.getUTF8String(EngineInput.STEP_ORDINAL));
        int run = row.getInt(EngineInput.RUN_ORDINAL);
        boolean ok = row.getBoolean(EngineInput.OK_ORDINAL);
        count(stepId, run, ok, row);
        if (ok && !row.isNullAt(EngineInput.LATENCY_ORDINAL)) {
          long latency = row.getLong(EngineInput.LATENCY_ORDINAL);
          int partition = partitionOf(stepHashes.get(stepId), LatencyBuckets.of(latency), partitions);
          long[][] stepBuffers = buffers.get(stepId);
          int at = fill.get(stepId)[partition]++;
          if (at == stepBuffers[partition].length) {
            // Buffers start small (many steps × partitions) and grow up to a chunk.
            stepBuffers[partition] = Arrays.copyOf(stepBuffers[partition], 2 * at);
          }
          stepBuffers[partition][at] = packing.pack(latency, run);
          if (at + 1 == CHUNK_VALUES) {
            ready.add(flush(stepId, partition));
            return;
          }
        }
      }
      for (int stepId = 0; stepId < steps.size(); stepId++) {
        for (int partition = 0; partition < partitions; partition++) {
          if (fill.get(stepId)[partition] > 0) {
            ready.add(flush(stepId, partition));
          }
        }
      }
      List<RunCounts> runCounts = new ArrayList<>();
      for (CountsBuilder[] ofStep : counts) {
        for (CountsBuilder builder : ofStep) {
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

    private Tuple2<Integer, Chunk> flush(int stepId, int partition) {
      long[][] stepBuffers = buffers.get(stepId);
      int length = fill.get(stepId)[partition];
      long[] values = length == stepBuffers[partition].length ? stepBuffers[partition] : Arrays.copyOf(stepBuffers[partition], length);
      if (values == stepBuffers[partition]) {
        stepBuffers[partition] = new long[INITIAL_BUFFER];
      }
      fill.get(stepId)[partition] = 0;
      return new Tuple2<>(partition, new Chunk.Values(steps.get(stepId), values));
    }

    private int stepId(UTF8String step) {
      if (lastStep != null && lastStep.equals(step)) {
        return lastStepId;
      }
      Integer id = stepIds.get(step);
      if (id == null) {
        UTF8String key = step.clone();
        id = steps.size();
        stepIds.put(key, id);
        steps.add(key.toString());
        stepHashes.add(key.toString().hashCode());
        long[][] stepBuffers = new long[partitions][];
        for (int p = 0; p < partitions; p++) {
          stepBuffers[p] = new long[INITIAL_BUFFER];
        }
        buffers.add(stepBuffers);
        fill.add(new int[partitions]);
        counts.add(new CountsBuilder[runs]);
      }
      lastStep = step.clone();
      lastStepId = id;
      return id;
    }

    private void count(int stepId, int run, boolean ok, InternalRow row) {
      CountsBuilder[] ofStep = counts.get(stepId);
      CountsBuilder builder = ofStep[run];
      if (builder == null) {
        builder = new CountsBuilder(steps.get(stepId), run);
        ofStep[run] = builder;
      }
      builder.tasks++;
      if (ok) {
        builder.ok++;
      } else {
        String code = row.isNullAt(EngineInput.CODE_ORDINAL) ? "unknown" : row.getUTF8String(EngineInput.CODE_ORDINAL).toString();
        RunCounts.addError(builder.errors, code, 1);
      }
      if (ok && !row.isNullAt(EngineInput.END_ORDINAL)) {
        long end = row.getLong(EngineInput.END_ORDINAL);
        builder.firstEndUs = Math.min(builder.firstEndUs, end);
        builder.lastEndUs = Math.max(builder.lastEndUs, end);
      }
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
