package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

/**
 * The machine's CPU time that other work took while runs measured ({@link OtherWork}): the
 * machine's busy time over a window less every overlapping run's own, by hand-worked windows.
 */
class OtherWorkTest {
  private static final long S = 1_000_000_000L;

  /**
   * One step window from {@code fromS} to {@code toS} (seconds), with the machine's busy and total
   * CPU time over it and the run's own server and client CPU time (null: not measured, as a server
   * by URL's; machine null: an older loadgen).
   */
  private record W(String step, double fromS, double toS, Double machineBusyS, Double machineS, Double serverS,
      Double clientS) {
    String json() {
      StringBuilder counters = new StringBuilder();
      java.util.function.BiConsumer<String, Double> add = (name, seconds) -> {
        if (seconds != null) {
          counters.append(counters.isEmpty() ? "" : ",").append("{\"name\":\"").append(name)
              .append("\",\"before\":1000,\"after\":").append(1000 + Math.round(seconds * S)).append(",\"unit\":\"ns\"}");
        }
      };
      add.accept("machine_cpu_busy_ns", machineBusyS);
      add.accept("machine_cpu_ns", machineS);
      add.accept("server_cpu_user_ns", serverS == null ? null : serverS * 0.75);
      add.accept("server_cpu_system_ns", serverS == null ? null : serverS * 0.25);
      add.accept("client_cpu_user_ns", clientS == null ? null : clientS * 0.5);
      add.accept("client_cpu_system_ns", clientS == null ? null : clientS * 0.5);
      return "{\"step\":\"" + step + "\",\"tasks\":10,\"window\":\"measured\",\"from_epoch_ns\":" + Math.round(fromS * S)
          + ",\"to_epoch_ns\":" + Math.round(toS * S) + ",\"counters\":[" + counters + "]}";
    }
  }

  private static ScopeRun run(String id, W... windows) throws Exception {
    List<String> steps = new ArrayList<>();
    for (W w : windows) {
      steps.add(w.json());
    }
    JsonNode manifest = Json.mapper().readTree("{\"run_id\":\"" + id + "\",\"step_resources\":["
        + String.join(",", steps) + "]}");
    return new ScopeRun(id, "loadgen", Map.of(), "sysbench", 1, "17", manifest, Json.mapper().createObjectNode());
  }

  private static ScopeRun run(String id, double fromS, double toS, Double machineBusyS, Double machineS,
      Double serverS, Double clientS) throws Exception {
    return run(id, new W("s", fromS, toS, machineBusyS, machineS, serverS, clientS));
  }

  /**
   * A duet pair over the same 2 s on 2 CPUs (4 CPU-s in all): the machine busy 3.8 s, side a's
   * server and client 1.9 s, side b's 1.7 s, so other work took 0.2 of 4 s, 5 %, seen alike from
   * either side's window.
   */
  @Test
  void otherWorkIsTheMachinesBusyTimeLessBothSidesOwn() throws Exception {
    ScopeRun a = run("a", 10, 12, 3.8, 4.0, 1.2, 0.7);
    ScopeRun b = run("b", 10, 12, 3.8, 4.0, 1.1, 0.6);
    List<OtherWork.Window> every = new ArrayList<>(OtherWork.windows(a));
    every.addAll(OtherWork.windows(b));
    assertThat(OtherWork.otherNs(OtherWork.windows(a).get(0), every, 2 * S).getAsDouble() / S).isCloseTo(0.2,
        Offset.offset(1e-9));
    assertThat(OtherWork.of(List.of(a, b), List.of(a, b))).isEqualTo("5.0 % of the machine's CPU time over the "
        + "measured windows, beside the runs' servers and clients");
  }

  /**
   * A run that overlaps half of the window counts half of its own time (its window is 2 s, 1 s of
   * it inside): 3.0 busy − 1.0 (own) − 1.6 / 2 = 1.2 of 4 s, 30 %, over the warning.
   */
  @Test
  void aRunOverlappingPartOfTheWindowCountsItsShareAndOverFivePercentIsWarnedOf() throws Exception {
    ScopeRun a = run("a", 10, 12, 3.0, 4.0, 0.6, 0.4);
    ScopeRun late = run("late", 11, 13, null, null, 1.0, 0.6);
    assertThat(OtherWork.of(List.of(a, late), List.of(a))).startsWith("30.0 % of the machine's CPU time")
        .contains("(warning: over 5 %, the machine was not quiet");
    // A run that ended before the window began takes nothing from it.
    ScopeRun before = run("before", 5, 9.99, null, null, 1.0, 0.6);
    assertThat(OtherWork.of(List.of(a, before), List.of(a))).startsWith("50.0 % of the machine's CPU time");
  }

  /**
   * Shares are of sums: step s1's two windows read +10 % and −10 % (ticks' noise), so 0 % in all,
   * not the +5 % that clamping each window at 0 would give; s2's read 8 %; overall (0 + 0.32) of 8
   * CPU-s, 4.0 %, and the largest named by step.
   */
  @Test
  void sharesAreOfSumsSoATicksNoiseCancelsAndTheLargestIsNamedByStep() throws Exception {
    ScopeRun r = run("r", new W("s1", 10, 11, 1.2, 2.0, 0.6, 0.4), new W("s2", 11, 12, 1.16, 2.0, 0.6, 0.4),
        new W("s1", 12, 13, 0.8, 2.0, 0.6, 0.4), new W("s2", 13, 14, 1.16, 2.0, 0.6, 0.4));
    assertThat(OtherWork.of(List.of(r), List.of(r))).isEqualTo("4.0 % of the machine's CPU time over the measured"
        + " windows (at most 8.0 % in step s2), beside the runs' servers and clients");
    // A step of 50 ms windows (a scan) counts in the overall share but names no step: 0.1 of 0.2 CPU-s
    // adds to the sums (0.42 of 8.2, 5.1 %), and s2 stays the largest named.
    ScopeRun withScan = run("r", new W("s1", 10, 11, 1.2, 2.0, 0.6, 0.4), new W("s2", 11, 12, 1.16, 2.0, 0.6, 0.4),
        new W("s1", 12, 13, 0.8, 2.0, 0.6, 0.4), new W("s2", 13, 14, 1.16, 2.0, 0.6, 0.4),
        new W("scan", 14, 14.05, 0.15, 0.2, 0.03, 0.02));
    assertThat(OtherWork.of(List.of(withScan), List.of(withScan))).startsWith("5.1 % of the machine's CPU time over"
        + " the measured windows (at most 8.0 % in step s2)");
  }

  /** A server by URL beside the window has no own CPU time here: the share is not guessed. */
  @Test
  void aWindowBesideARunWithoutItsOwnCpuTimeIsNotRecorded() throws Exception {
    ScopeRun a = run("a", 10, 12, 3.0, 4.0, 0.6, 0.4);
    ScopeRun byUrl = run("url", 10, 12, 3.0, 4.0, null, 0.4);
    assertThat(OtherWork.of(List.of(a, byUrl), List.of(a))).isEqualTo("not recorded (a run beside them did not "
        + "record its own CPU time)");
  }

  /** Runs whose loadgen did not read the machine's CPU give no fact at all: older runs never carry it. */
  @Test
  void runsWithoutTheMachinesFiguresGiveNoFact() throws Exception {
    ScopeRun old = run("old", 10, 12, null, null, 0.6, 0.4);
    assertThat(OtherWork.of(List.of(old), List.of(old))).isNull();
    assertThat(Scope.of(List.of(old), Map.of("x", List.of("old"))).facts()).extracting(Scope.Fact::key)
        .doesNotContain("other_work");
    ScopeRun measured = run("m", 10, 12, 2.0, 4.0, 1.0, 0.9);
    assertThat(Scope.of(List.of(measured), Map.of("x", List.of("m"))).facts()).extracting(Scope.Fact::key)
        .contains("other_work");
  }
}
