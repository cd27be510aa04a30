package dev.benchlake.app.endtoend;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.cli.CompareCommand;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.ingest.Ingest;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 28 item 3 through every layer: loadgen run folders (manifest.json and tasks.csv, written
 * with core's contract classes) labelled as a duet labels them ({@code design=duet}, {@code round},
 * {@code side}), ingested, then {@code benchlake compare}. Every round's two runs share the
 * machine's speed at that moment (±30 % from round to round), the candidate is 10 % slower within
 * each round, and round 6 lost its candidate run. The paired analysis is chosen from the labels and
 * reported; its interval is a fraction of the unpaired one's on the same figures (the same runs
 * labelled as interleaved rounds), which {@code --pair-by round} pairs as the duet's; the run left
 * alone is listed; a {@code --pair-by} label the runs lack, or pairs that do not line up, is exit 2
 * with nothing written.
 */
@org.junit.jupiter.api.Tag("integration")
class PairedCompareTest extends SparkTestBase {
  private static final long ORIGIN_NS = 1_700_000_000_000_000_000L;
  /** The machine's speed in each round, shared by both runs of the round. */
  private static final double[] ROUND = {1.0, 1.3, 0.75, 1.2, 0.85, 1.1};
  /** What is left of each round's ratio: ±1 %. */
  private static final double[] PAIR_NOISE = {0.01, -0.008, 0.004, -0.01, 0.006, -0.002};
  private static final int TASKS = 41;

  @TempDir
  Path dir;

  @Test
  void duetRunsArePairedByRoundTheIntervalNarrowsAndBadPairingIsExitTwo() throws Exception {
    List<Path> runs = new ArrayList<>();
    for (String campaign : List.of("duet", "interleaved")) {
      for (int round = 1; round <= ROUND.length; round++) {
        double baseMs = ROUND[round - 1];
        runs.add(run(campaign, round, "a", 14, baseMs));
        if (round < ROUND.length) {
          runs.add(run(campaign, round, "b", 17, baseMs * 1.10 * Math.exp(PAIR_NOISE[round - 1])));
        }
      }
    }
    Warehouse warehouse = Warehouse.at(spark, dir.resolve("wh").toString());
    Ingest.run(spark, warehouse, IngestRequest.of(runs.toArray(new Path[0])));

    JsonNode duet = compare(warehouse, "duet", "c-duet");
    assertThat(duet.get("design").asText()).isEqualTo("duet");
    JsonNode read = duet.get("steps").get(0).get("run_level");
    assertThat(read.get("analysis").asText()).isEqualTo("paired");
    assertThat(read.get("pairs").get("count").asInt()).isEqualTo(5);
    assertThat(read.get("pairs").get("dropped")).singleElement().satisfies(d -> {
      assertThat(d.get("run_id").asText()).isEqualTo("duet-6-a");
      assertThat(d.get("key").asText()).isEqualTo("round=6");
    });
    assertThat(duet.get("steps").get(0).get("verdict").asText()).isEqualTo("slower");
    assertThat(read.get("ratio").asDouble()).isBetween(1.09, 1.11);
    String markdown = Files.readString(dir.resolve("c-duet/report.md"), StandardCharsets.UTF_8);
    assertThat(markdown).contains("θ is the paired θ (design duet)", "| 5 pairs |",
        "Dropped for want of a partner: duet-6-a (baseline, round=6)", "- Analysis: paired (design duet)");
    assertThat(Files.readString(dir.resolve("c-duet/report.html"), StandardCharsets.UTF_8))
        .contains("paired θ", "data-pairs", "Dropped for want of a partner: duet-6-a");

    JsonNode interleaved = compare(warehouse, "interleaved", "c-interleaved");
    assertThat(interleaved.get("design").asText()).isEqualTo("unpaired");
    JsonNode unpaired = interleaved.get("steps").get(0).get("run_level");
    assertThat(unpaired.get("analysis").asText()).isEqualTo("unpaired");
    assertThat(unpaired.get("pairs").isNull()).isTrue();
    assertThat(interleaved.get("steps").get(0).get("verdict").asText()).as("the rounds' swing drowns 10 %")
        .isEqualTo("inconclusive");
    double pairedHalfWidth = halfWidth(read);
    double unpairedHalfWidth = halfWidth(unpaired);
    System.out.printf(java.util.Locale.ROOT, "95%% half-width on the log scale: paired %.4f, unpaired %.4f%n", pairedHalfWidth,
        unpairedHalfWidth);
    assertThat(pairedHalfWidth).as("the round's common swing cancels in each pair").isLessThan(unpairedHalfWidth / 5);

    JsonNode byRound = compare(warehouse, "interleaved", "c-by-round", "--pair-by", "round");
    assertThat(byRound.get("design").asText()).isEqualTo("paired-by:round");
    assertThat(byRound.get("steps").get(0).get("run_level").get("ci95")).isEqualTo(read.get("ci95"));

    Path out = dir.resolve("c-bad");
    CommandRun lacking = CommandRun.of(new CompareCommand(), "--warehouse", warehouse.root(), "--baseline",
        "campaign=duet,db_major=14", "--candidate", "campaign=duet,db_major=17", "--pair-by", "batch", "--out",
        out.toString());
    assertThat(lacking.exitCode()).as(lacking.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(lacking.stderr().lines().toList()).singleElement().asString()
        .contains("--pair-by batch: baseline run duet-1-a has no label 'batch', so it cannot be paired");
    CommandRun twice = CommandRun.of(new CompareCommand(), "--warehouse", warehouse.root(), "--baseline", "db_major=14",
        "--candidate", "db_major=17", "--pair-by", "round", "--out", out.toString());
    assertThat(twice.exitCode()).as(twice.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(twice.stderr().lines().toList()).singleElement().asString()
        .contains("pairs do not line up: baseline runs duet-1-a and interleaved-1-a both have round=1");
    assertThat(out).as("nothing written").doesNotExist();
  }

  private JsonNode compare(Warehouse warehouse, String campaign, String out, String... more) throws Exception {
    List<String> args = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--baseline",
        "campaign=" + campaign + ",db_major=14", "--candidate", "campaign=" + campaign + ",db_major=17", "--out",
        dir.resolve(out).toString()));
    args.addAll(List.of(more));
    CommandRun compare = CommandRun.of(new CompareCommand(), args);
    assertThat(compare.exitCode()).as(compare.stderr()).isZero();
    return Json.mapper().readTree(Files.readString(dir.resolve(out).resolve("report.json"), StandardCharsets.UTF_8));
  }

  private static double halfWidth(JsonNode runLevel) {
    return Math.log(runLevel.get("ci95").get(1).asDouble() / runLevel.get("ci95").get(0).asDouble()) / 2;
  }

  /**
   * One run of step {@code read}: {@value #TASKS} tasks of one client whose latencies spread ±10 %
   * around {@code medianMs}; a duet's labels, or an interleaved study's.
   */
  private Path run(String campaign, int round, String side, int major, double medianMs) throws Exception {
    String runId = campaign + "-" + round + "-" + side;
    Path out = Files.createDirectories(dir.resolve(runId));
    TreeMap<String, String> labels = new TreeMap<>(Map.of("campaign", campaign, "round", Integer.toString(round),
        "design", campaign));
    if (campaign.equals("duet")) {
      labels.put("side", side);
    }
    new RunManifest(RunManifest.FORMAT_VERSION, runId, new RunManifest.Tool("benchlake-loadgen", "test"),
        "2026-12-01T10:0" + round + ":00Z", "2026-12-01T10:0" + round + ":30Z", ORIGIN_NS + round * 60_000_000_000L,
        RunStatus.COMPLETE, null,
        new RunManifest.Workload("sysbench", List.of("read"), new TreeMap<>(Map.of("scale", 1))),
        new RunManifest.Mode("closed", 1, (long) TASKS, null, 0.0, null, null, null),
        new RunManifest.Target("jdbc:postgresql://127.0.0.1:5432/postgres", true, "PostgreSQL " + major + ".4", major,
            new TreeMap<>()),
        new RunManifest.Client("bench-host", "Linux", "6.1", "amd64", 2, null, "17"), labels, null)
        .writeAtomically(RunDirectory.manifest(out));
    StringBuilder csv = new StringBuilder(TaskCsv.HEADER).append('\n');
    long at = campaign.equals("duet") ? 0 : 7; // the two campaigns' files differ, whatever their figures
    for (int i = 0; i < TASKS; i++) {
      long latencyNs = Math.round(medianMs * 1e6 * (1 + 0.1 * (i - TASKS / 2) / (TASKS / 2)));
      TaskCsv.appendLine(new TaskRecord("read", 0, i, at, at, at + latencyNs, 0, false, true, "", ""), csv);
      at += latencyNs;
    }
    Files.writeString(RunDirectory.tasks(out), csv, StandardCharsets.UTF_8);
    return out;
  }
}
