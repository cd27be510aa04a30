package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.loadgen.db.BetweenSteps;
import dev.benchlake.loadgen.run.ArrivalSchedule;
import dev.benchlake.loadgen.workload.RandType;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** A config written as loadgen options reads back as the same config: a duet's side runs what the study planned. */
class LoadgenArgsTest {
  private static LoadgenConfig parse(List<String> args) {
    LoadgenCommand command = new LoadgenCommand();
    CommandLine cl = Cli.commandLine(command);
    cl.parseArgs(args.toArray(String[]::new));
    return command.config();
  }

  private static void roundTrips(LoadgenConfig config) {
    assertThat(parse(LoadgenArgs.of(config))).as(String.join(" ", LoadgenArgs.of(config))).isEqualTo(config);
  }

  @Test
  void theStudiesConfigsRoundTrip() {
    // study versions: the mytools steps with their own read and write durations, settings, a cluster folder.
    roundTrips(LoadgenConfig.builder()
        .target(new LoadgenConfig.Embedded(14, Map.of("shared_buffers", "128kB", "jit", "off"), Path.of("/tmp/pg")))
        .workload("sysbench").steps(List.of("mytools")).tables(4).tableSize(20_000_000)
        .mode(LoadgenConfig.Mode.closed(8)).readDuration(Duration.ofSeconds(600)).writeDuration(Duration.ofSeconds(1200))
        .warmup(Duration.ofSeconds(5)).randomSeed(-3L).outDir(Path.of("out/r1-pg14"))
        .labels(Map.of("design", "duet", "round", "1", "side", "a", "cpus", "0-1")).build());
    // the quickstart's two workloads: a burst, and sysbench steps with a sub-second warm-up.
    roundTrips(LoadgenConfig.builder().workload("select-update").scale(0.02)
        .mode(LoadgenConfig.Mode.burst(400, 20, Duration.ofSeconds(15))).tasks(400L).randomSeed(20_161_143L)
        .outDir(Path.of("q/pg14-run1-select-update")).build());
    roundTrips(LoadgenConfig.builder().workload("sysbench").steps(List.of("point-select", "read-only", "insert"))
        .tables(1).tableSize(10_000).mode(LoadgenConfig.Mode.closed(4)).duration(Duration.ofSeconds(2))
        .warmup(Duration.ofMillis(500)).betweenSteps(BetweenSteps.VACUUM_ANALYZE).randomSeed(1L)
        .outDir(Path.of("q/s")).build());
    // a server by URL, an open loop, and every other option away from its default.
    roundTrips(LoadgenConfig.builder().target(new LoadgenConfig.External("jdbc:postgresql://db:5432/bench", "bench"))
        .workload("point-select").rangeSize(7).randType(RandType.SPECIAL)
        .mode(LoadgenConfig.Mode.open(3, 250.5, ArrivalSchedule.Kind.FIXED)).duration(Duration.ofMinutes(2))
        .skipLoad(true).runId("run-7").outDir(Path.of("x")).connectTimeout(Duration.ofSeconds(3))
        .queryTimeout(Duration.ofMillis(1500)).maxOutage(Duration.ofSeconds(9)).build());
    roundTrips(LoadgenConfig.builder().workload("select-update").thinkTime(Duration.ofMillis(50), Duration.ofMillis(250))
        .mode(LoadgenConfig.Mode.burst(50, 5, Duration.ofSeconds(2))).outDir(Path.of("t")).build());
  }

  /** {@code --profile} reaches a duet's side; alone it samples at 99 Hz; a server by URL or 0 Hz is refused before anything starts. */
  @Test
  void aProfileRoundTripsAndIsRefusedOnAServerByUrl() {
    LoadgenConfig profiled = LoadgenConfig.builder().workload("point-select").mode(LoadgenConfig.Mode.closed(1))
        .duration(Duration.ofSeconds(2)).outDir(Path.of("p")).profileHz(499).build();
    roundTrips(profiled);
    assertThat(LoadgenArgs.of(profiled)).containsSubsequence("--profile", "499");
    assertThat(parse(List.of("--workload", "point-select", "--profile", "--duration", "1s", "--out", "p")).profileHz())
        .isEqualTo(StepProfiler.DEFAULT_HZ);
    assertThat(parse(List.of("--workload", "point-select", "--out", "p")).profileHz()).isNull();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse(List.of("--jdbc-url", "jdbc:postgresql://db/b",
        "--workload", "point-select", "--profile", "--out", "p")))
        .isInstanceOf(dev.benchlake.core.cli.BadInputException.class).hasMessageContaining("server by URL");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse(List.of("--workload", "point-select",
        "--profile", "0", "--out", "p")))
        .isInstanceOf(dev.benchlake.core.cli.BadInputException.class).hasMessage("--profile: 0 Hz is not between 1 and 10000");
  }

  @Test
  void aHandicapRoundTripsAndLabelsItsRunWhateverLabelWasGiven() {
    LoadgenConfig handicapped = LoadgenConfig.builder().workload("point-select").mode(LoadgenConfig.Mode.closed(1))
        .duration(Duration.ofSeconds(2)).outDir(Path.of("h")).labels(Map.of("side", "b", "handicap_stretch", "9"))
        .handicapStretch(0.05).build();
    roundTrips(handicapped);
    assertThat(handicapped.labels()).containsEntry("handicap_stretch", "0.05").containsEntry("side", "b");
    assertThat(LoadgenArgs.of(handicapped)).containsSubsequence("--handicap-stretch", "0.05")
        .doesNotContain("handicap_stretch=0.05");
    assertThat(LoadgenConfig.builder().workload("point-select").build().labels()).doesNotContainKey("handicap_stretch");
  }

  @Test
  void aScriptWorkloadWithDefinesRoundTrips() {
    roundTrips(LoadgenConfig.builder().workload("script").scripts(List.of("a.sql@3", "b.sql"))
        .defines(Map.of("scale", 10L, "aid", 2L)).mode(LoadgenConfig.Mode.closed(2)).tasks(100L)
        .outDir(Path.of("s")).build());
  }
}
