package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.raw.ResourceMetric.Counter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.TreeMap;

/**
 * How much of the machine's CPU other work took while the runs measured (the scope's
 * {@code other_work}): for each step window of a run, the machine's busy CPU time
 * ({@code machine_cpu_busy_ns}, read by loadgen at both ends of the window) less the own CPU time
 * (server tree and client JVM) of every run whose windows overlap it, this run's and a duet's
 * other side's alike, each counted for the share of its window that overlaps, over the machine's
 * CPU time in all. What is left is everything else: the study's coordinator, the CPU-set mover, a
 * profiler, other programs, a hypervisor's steal.
 *
 * <p>Why a report says it: a duet side or a sequential run has its CPUs to itself only on a quiet
 * machine. Under other work a side that costs more CPU can lose more than its share (a scheduler
 * that ran a task longer places it later when it wakes), so a difference can read larger than it
 * is: {@code benchlake calibrate}'s 10 % handicap, a client spinning for a tenth of each task, read
 * high in every run so far, the more so the more other work (+0.3 % alone, +2.1 % at 79 % other
 * work, +5.4 % in CI; docs/log.md). Runs that did not
 * record the machine's CPU (older ones, third-party results, a server by URL whose processes are
 * not ours) give no figure.
 */
final class OtherWork {
  /**
   * Above this share of the machine's CPU time taken by other work over the measured windows, the
   * scope warns: at 5 % a 2-CPU duet's sides lose a tenth of a CPU between them, enough to move a
   * CPU-bound ratio by more than the default margin's half.
   */
  static final double WARN_SHARE = 0.05;

  /**
   * The shortest window a step's largest share is read from. Shorter ones count in the overall
   * share but name no step: where a duet's sides end a step apart (16's 50 ms scan beside 11's
   * 280 ms), the other side's own time is spread evenly over its window, which over 50 ms is not
   * how it ran; the version study's scan read 16.9 % over its 30 rounds, its 1 s steps 1.3–4.9 %.
   */
  static final long MIN_NAMED_WINDOW_NS = 500_000_000L;

  private OtherWork() {}

  /** One step window of one run: its step, when, the machine's CPU over it, and the run's own CPU in it. */
  record Window(String runId, String step, long fromNs, long toNs, Long machineBusyNs, Long machineNs, Long ownNs) {
    long length() {
      return Math.max(1, toNs - fromNs);
    }

    long overlap(Window o) {
      return Math.max(0, Math.min(toNs, o.toNs) - Math.max(fromNs, o.fromNs));
    }
  }

  /** The step windows a run's manifest records ({@code step_resources} with both ends' times). */
  static List<Window> windows(ScopeRun run) {
    List<Window> out = new ArrayList<>();
    for (JsonNode step : run.manifest().path("step_resources")) {
      if (!step.path("from_epoch_ns").canConvertToLong() || !step.path("to_epoch_ns").canConvertToLong()) {
        continue;
      }
      Long busy = delta(step, Counter.MACHINE_CPU_BUSY_NS);
      Long all = delta(step, Counter.MACHINE_CPU_NS);
      Long own = sum(step, Counter.SERVER_CPU_USER_NS, Counter.SERVER_CPU_SYSTEM_NS, Counter.CLIENT_CPU_USER_NS,
          Counter.CLIENT_CPU_SYSTEM_NS);
      out.add(new Window(run.runId(), step.path("step").asText(), step.path("from_epoch_ns").asLong(),
          step.path("to_epoch_ns").asLong(), busy, all, own));
    }
    return out;
  }

  /**
   * The machine's CPU time other work took in {@code w} (ns, not clamped: a window's own figures are
   * in 10 ms ticks per process, so a short one can come out below 0 as often as above its share), or
   * empty when w lacks the machine's figures or a window overlapping it lacks its own CPU time.
   *
   * @param concurrent every run's windows (w's own included), sorted by start
   * @param longest the longest of them, in ns
   */
  static OptionalDouble otherNs(Window w, List<Window> concurrent, long longest) {
    if (w.machineBusyNs() == null || w.machineNs() == null || w.machineNs() <= 0) {
      return OptionalDouble.empty();
    }
    double own = 0;
    // Only windows that start within the longest window's length before w can overlap it: a binary
    // search to there, not a scan of a warehouse's every window for each of the report's.
    for (Window o : concurrent.subList(firstStartingFrom(concurrent, w.fromNs() - longest), concurrent.size())) {
      if (o.fromNs() >= w.toNs()) {
        break;
      }
      long overlap = w.overlap(o);
      if (overlap == 0) {
        continue;
      }
      if (o.ownNs() == null) {
        return OptionalDouble.empty();
      }
      own += o.ownNs() * ((double) overlap / o.length());
    }
    return OptionalDouble.of(w.machineBusyNs() - own);
  }

  /**
   * The scope's sentence for {@code selected}'s windows, or null when none recorded the machine's
   * CPU (the fact is then left out: older runs never carry it). The shares are of sums, overall
   * and per step over its rounds, clamped to [0, 1] only then: one 1 s window's figure read −10 % to
   * +17 % in the version study (10 ms ticks over a dozen processes), so the largest is given by step,
   * where its rounds' noise cancels, never by window, and only from windows of {@link
   * #MIN_NAMED_WINDOW_NS} or more.
   *
   * @param all every run of the warehouse: the runs whose windows may overlap the selected ones'
   */
  static String of(List<ScopeRun> all, List<ScopeRun> selected) {
    List<Window> every = new ArrayList<>();
    all.forEach(r -> every.addAll(windows(r)));
    every.sort(Comparator.comparingLong(Window::fromNs));
    long longest = every.stream().mapToLong(Window::length).max().orElse(0);
    double otherNs = 0;
    double machineNs = 0;
    Map<String, double[]> byStep = new TreeMap<>();
    Set<String> steps = new HashSet<>();
    int measured = 0;
    int unmeasured = 0;
    for (ScopeRun run : selected) {
      for (Window w : windows(run)) {
        if (w.machineBusyNs() == null) {
          continue;
        }
        OptionalDouble other = otherNs(w, every, longest);
        if (other.isEmpty()) {
          unmeasured++;
          continue;
        }
        measured++;
        steps.add(w.step());
        otherNs += other.getAsDouble();
        machineNs += w.machineNs();
        if (w.length() >= MIN_NAMED_WINDOW_NS) {
          double[] step = byStep.computeIfAbsent(w.step(), k -> new double[2]);
          step[0] += other.getAsDouble();
          step[1] += w.machineNs();
        }
      }
    }
    if (measured == 0) {
      return unmeasured == 0 ? null : Scope.NOT_RECORDED + " (a run beside them did not record its own CPU time)";
    }
    double overall = clamp(otherNs / machineNs);
    String largestStep = null;
    double largest = -1;
    for (Map.Entry<String, double[]> e : byStep.entrySet()) {
      double share = clamp(e.getValue()[0] / e.getValue()[1]);
      if (share > largest) {
        largest = share;
        largestStep = e.getKey();
      }
    }
    String text = String.format(Locale.ROOT, "%.1f %% of the machine's CPU time over the measured windows", overall * 100);
    if (!byStep.isEmpty() && steps.size() > 1) {
      text += String.format(Locale.ROOT, " (at most %.1f %% in step %s)", largest * 100, largestStep);
    }
    text += ", beside the runs' servers and clients";
    if (unmeasured > 0) {
      text += String.format(Locale.ROOT, " (%s for %d of %d step windows)", Scope.NOT_RECORDED, unmeasured,
          measured + unmeasured);
    }
    if (overall > WARN_SHARE) {
      text += String.format(Locale.ROOT, " (warning: over %.0f %%, the machine was not quiet; a side that costs more"
          + " CPU can lose more than its share to such work: beside it, every estimate of calibrate's known"
          + " handicap so far read high)", WARN_SHARE * 100);
    }
    return text;
  }

  /** The index of the first window (sorted by start) that starts at or after {@code fromNs}. */
  private static int firstStartingFrom(List<Window> sorted, long fromNs) {
    int low = 0;
    int high = sorted.size();
    while (low < high) {
      int mid = (low + high) >>> 1;
      if (sorted.get(mid).fromNs() < fromNs) {
        low = mid + 1;
      } else {
        high = mid;
      }
    }
    return low;
  }

  private static double clamp(double share) {
    return Math.max(0, Math.min(1, share));
  }

  private static Long delta(JsonNode step, String counter) {
    for (JsonNode c : step.path("counters")) {
      if (counter.equals(c.path("name").asText())) {
        return c.path("after").asLong() - c.path("before").asLong();
      }
    }
    return null;
  }

  private static Long sum(JsonNode step, String... counters) {
    long total = 0;
    for (String counter : counters) {
      Long d = delta(step, counter);
      if (d == null) {
        return null;
      }
      total += d;
    }
    return total;
  }
}
