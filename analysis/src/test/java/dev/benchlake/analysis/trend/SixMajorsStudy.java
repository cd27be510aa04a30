package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.StepHealthRecord;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The trend of {@code study versions --pg 11,12,13,14,15,16 --design duet --until-decided} as its
 * runs would give it, without a server: the 48 steps of {@code --steps mytools}, 6 rounds, each
 * round one pair of runs per major against 11 (labels {@code design=duet}, {@code round},
 * {@code pair=11v12} …, {@code cpus} swapped every round), run ids UUIDs as loadgen's. Each pair
 * shares its moment (the machine swings by 20 % from pair to pair), each run 2 % noise per step.
 * Steps drop out as the study decides them: a third after round 3 (the first look), a third after round 5,
 * the rest run all 6 rounds; round 4 of 13 against 11 lost {@code insert_range=100} on side b (a step
 * that failed). 12 is 11's equal; the later majors lose a little on the point queries and
 * {@code points-notcovered-si} loses a third at 16, as the issue measured. Every run records its
 * table health; at 14, 15 and 16 update-index and delete start with 40 % dead tuples (11's none).
 */
final class SixMajorsStudy {
  static final List<String> MAJORS = List.of("11", "12", "13", "14", "15", "16");
  static final int ROUNDS = 6;

  /** {@code --steps mytools}, in its order (loadgen's MytoolsStep.STUDY). */
  static final List<String> STEPS = List.of("point-query.warm_range=100", "point-query.pre_range=100",
      "random-points.pre_range=10", "random-points.pre_range=100", "random-points.pre_range=1000",
      "read-only.pre_range=10", "read-only.pre_range=100", "read-only.pre_range=10000",
      "points-covered-pk.pre_range=100", "points-notcovered-pk.pre_range=100", "points-covered-si.pre_range=100",
      "points-notcovered-si.pre_range=100", "range-covered-pk.pre_range=100", "range-notcovered-pk.pre_range=100",
      "range-covered-si.pre_range=100", "range-notcovered-si.pre_range=100", "update-inlist_range=100",
      "update-index_range=100", "update-nonindex_range=100", "update-one_range=100", "update-zipf_range=100",
      "write-only_range=10000", "read-write_range=10", "read-write_range=100", "read-only_range=10",
      "read-only_range=100", "read-only_range=10000", "read-only-simple_range=1000", "read-only-sum_range=1000",
      "read-only-order_range=1000", "read-only-distinct_range=1000", "read-only-count_range=1000",
      "point-query_range=100", "random-points_range=10", "random-points_range=100", "random-points_range=1000",
      "hot-points_range=100", "points-covered-pk_range=100", "points-notcovered-pk_range=100",
      "points-covered-si_range=100", "points-notcovered-si_range=100", "range-covered-pk_range=100",
      "range-notcovered-pk_range=100", "range-covered-si_range=100", "range-notcovered-si_range=100",
      "scan_range=100", "delete_range=100", "insert_range=100");

  private SixMajorsStudy() {}

  static TrendReport report() {
    return report(MAJORS);
  }

  /** The same study of {@code majors} (11 first): {@code List.of("11", "16")} is the two-major study. */
  static TrendReport report(List<String> majors) {
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    Map<String, Map<String, String>> labels = new HashMap<>();
    Map<String, Map<String, StepHealthRecord>> health = new HashMap<>();
    SplittableRandom random = new SplittableRandom(4705);
    for (int round = 1; round <= ROUNDS; round++) {
      for (String major : majors.subList(1, majors.size())) {
        double moment = 0.2 * random.nextGaussian();
        String pair = "11v" + major;
        for (String side : List.of("a", "b")) {
          String version = side.equals("a") ? "11" : major;
          String id = runId(round, pair, side);
          runs.computeIfAbsent(version, v -> new ArrayList<>()).add(id);
          labels.put(id, Map.of("design", "duet", "round", Integer.toString(round), "pair", pair, "cpus",
              (round % 2 == 0) == side.equals("a") ? "0" : "1"));
          for (int s = 0; s < STEPS.size(); s++) {
            String step = STEPS.get(s);
            int lastRound = s % 3 == 0 ? 3 : s % 3 == 1 ? 5 : ROUNDS;
            boolean failed = round == 4 && major.equals("13") && side.equals("b") && step.equals("insert_range=100");
            if (round > lastRound || failed) {
              continue;
            }
            boolean dead = Integer.parseInt(version) >= 14 && (step.startsWith("update-index")
                || step.startsWith("delete"));
            health.computeIfAbsent(id, r -> new HashMap<>()).put(step, new StepHealthRecord(id, step, 6000L,
                dead ? 4000L : 0L, 0, 0, "none"));
            double level = 1000.0 * (1 + s % 7) * (version.equals("11") ? 1 : ratio(step, version));
            observations.add(new Observation(id, version, step, level * Math.exp(moment + 0.02
                * random.nextGaussian())));
          }
        }
      }
    }
    return TrendAnalysis.analyse(observations, runs, TrendRequest.of("db_major", "11", "qps"), List.of(),
        new TableHealthConfounders(health, TableHealthConfounders.DEFAULT_DEAD_FRACTION_THRESHOLD), labels);
  }

  /** A step's qps at {@code major} relative to 11. */
  private static double ratio(String step, String major) {
    int later = Integer.parseInt(major) - 12;
    if (step.startsWith("points-notcovered-si")) {
      return major.equals("16") ? 0.67 : 1 - 0.02 * later;
    }
    if (step.startsWith("point-query") || step.startsWith("random-points")) {
      return 1 - 0.025 * later;
    }
    if (step.startsWith("range-") || step.startsWith("read-only")) {
      return 1 + 0.015 * later;
    }
    return 1.0;
  }

  /** A run id as loadgen makes one (a UUID), the same for the same run on every machine. */
  private static String runId(int round, String pair, String side) {
    return UUID.nameUUIDFromBytes(("r" + round + pair + side).getBytes(StandardCharsets.UTF_8)).toString();
  }
}
