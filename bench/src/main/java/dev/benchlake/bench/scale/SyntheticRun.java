package dev.benchlake.bench.scale;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * One synthetic loadgen run as a closed-loop load generator would record it: {@code steps} steps
 * one after the other, {@code tasksPerRun} tasks in all spread evenly over them, {@code clients}
 * clients each starting its next task when the last one ended. Latencies are lognormal (nearly all
 * distinct in nanoseconds, the hard case for exact statistics) around a median that grows with the
 * step, with a per-run factor (runs differ more than tasks within a run), 3 % longer on
 * {@code os=b} and 5 % longer from the middle version on (a change for trend to find); one task in 2000 fails with a
 * serialization error. Everything follows from {@code index}: the same index gives the same run.
 *
 * <p>Pure: {@link #tasks} hands records to a consumer one at a time, so a run of any size is
 * written without holding its rows.
 */
public record SyntheticRun(int index, int runs, long tasksPerRun, int steps, int clients, int versions) {
  static final long ORIGIN_EPOCH_NS = 1_780_000_000_000_000_000L;
  private static final double SIGMA = 0.35;

  public SyntheticRun {
    if (tasksPerRun < steps || steps < 1 || clients < 1 || versions < 1 || runs < versions || index < 0
        || index >= runs) {
      throw new IllegalArgumentException("need 0 <= index < runs, runs >= versions >= 1, tasks per run >= steps >= 1"
          + " and clients >= 1");
    }
  }

  public String runId() {
    return String.format(Locale.ROOT, "scale-%03d", index);
  }

  /** {@code a} for even runs, {@code b} for odd ones: a compare of os=a vs os=b is half vs half. */
  public String os() {
    return index % 2 == 0 ? "a" : "b";
  }

  /** {@code 1.0}, {@code 1.1} …: consecutive runs share a version, so that each has repeats of both os. */
  public String version() {
    return "1." + versionIndex();
  }

  private int versionIndex() {
    return (int) ((long) index * versions / runs);
  }

  public static String step(int k) {
    return String.format(Locale.ROOT, "step-%02d", k);
  }

  /** The tasks of step k (0-based): the first {@code tasksPerRun % steps} steps get one more. */
  long tasksOfStep(int k) {
    return tasksPerRun / steps + (k < tasksPerRun % steps ? 1 : 0);
  }

  /** Where {@link #tasks} hands its records, one at a time. */
  @FunctionalInterface
  public interface TaskConsumer<E extends Exception> {
    void accept(TaskRecord task) throws E;
  }

  public <E extends Exception> void tasks(TaskConsumer<E> out) throws E {
    SplittableRandom random = new SplittableRandom(0x5CA1EL * 31 + index);
    double runFactor = Math.exp(0.05 * random.nextGaussian());
    double osFactor = os().equals("b") ? 1.03 : 1.0;
    double versionFactor = versionIndex() >= (versions + 1) / 2 ? 1.05 : 1.0;
    long[] clock = new long[clients];
    long seq = 0;
    for (int k = 0; k < steps; k++) {
      String step = step(k);
      double logMedianNs = Math.log(500_000.0 * (1 + 0.3 * k) * runFactor * osFactor * versionFactor);
      long stepStart = 0;
      for (long t : clock) {
        stepStart = Math.max(stepStart, t);
      }
      java.util.Arrays.fill(clock, stepStart);
      long n = tasksOfStep(k);
      for (long i = 0; i < n; i++) {
        int client = (int) (i % clients);
        long intended = clock[client];
        long start = intended + 1_000 + random.nextInt(2_000);
        long latency = (long) Math.exp(logMedianNs + SIGMA * random.nextGaussian());
        long end = start + latency;
        clock[client] = end;
        boolean ok = random.nextInt(2000) != 0;
        out.accept(new TaskRecord(step, client, seq++, intended, start, end, 0, false, ok,
            ok ? "" : "40001", ok ? "" : "could not serialize access due to concurrent update"));
      }
    }
  }

  /** The manifest of the finished run, with the summary its tasks give. */
  public RunManifest manifest(RunManifest.Summary summary, long durationNs) {
    List<String> stepNames = new ArrayList<>();
    for (int k = 0; k < steps; k++) {
      stepNames.add(step(k));
    }
    long origin = ORIGIN_EPOCH_NS + index * 3_600_000_000_000L;
    TreeMap<String, Object> parameters = new TreeMap<>(Map.of("tasks_per_run", tasksPerRun, "generator", "bench scale"));
    TreeMap<String, String> labels = new TreeMap<>(Map.of("os", os(), "version", version()));
    return new RunManifest(RunManifest.FORMAT_VERSION, runId(),
        new RunManifest.Tool("benchlake-bench-scale", "synthetic"),
        Instant.ofEpochSecond(0, origin).toString(), Instant.ofEpochSecond(0, origin + durationNs).toString(),
        origin, RunStatus.COMPLETE, null,
        new RunManifest.Workload("scale", stepNames, parameters),
        new RunManifest.Mode("closed", clients, tasksPerRun / steps, null, 0.0, null, null, null),
        null, new RunManifest.Client("bench", "Linux", "synthetic", "amd64", 2, null, "17"),
        labels, summary);
  }
}
