package dev.benchlake.app.study;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * What {@code study versions} runs: every major once per round, {@code repeats} rounds, the order
 * of each round shuffled by {@code seed} (recorded), so that a drift of the machine over the study
 * spreads over the versions instead of favouring the ones that run first.
 *
 * @param majors PostgreSQL majors; the first is the trend's base
 * @param repeats rounds (runs per major)
 * @param seed the shuffles' seed
 * @param steps loadgen's {@code --steps} (e.g. {@code mytools})
 * @param tables sbtest tables
 * @param tableSize rows per table
 * @param clients closed-loop connections
 * @param readDuration measured time of each read step
 * @param writeDuration measured time of each write step
 * @param warmup warm-up of each step
 */
public record VersionStudyPlan(List<Integer> majors, int repeats, long seed, List<String> steps, int tables,
    int tableSize, int clients, Duration readDuration, Duration writeDuration, Duration warmup) {

  public VersionStudyPlan {
    majors = List.copyOf(majors);
    steps = List.copyOf(steps);
    if (majors.size() < 2 || majors.stream().distinct().count() != majors.size()) {
      throw new IllegalArgumentException("--pg: give at least two different PostgreSQL majors, e.g. 11,16");
    }
    if (repeats < 1) {
      throw new IllegalArgumentException("--repeats must be at least 1, not " + repeats);
    }
  }

  /** One loadgen run: round r (from 1), its position in the round (from 1), the major. */
  public record Run(int round, int position, int major) {
    /** The run directory's name, e.g. {@code r2-pg14}. */
    public String dirName() {
      return "r" + round + "-pg" + major;
    }
  }

  /** Every run, in the order to run them. */
  public List<Run> schedule() {
    Random random = new Random(seed);
    List<Run> order = new ArrayList<>();
    for (int round = 1; round <= repeats; round++) {
      List<Integer> thisRound = new ArrayList<>(majors);
      Collections.shuffle(thisRound, random);
      for (int i = 0; i < thisRound.size(); i++) {
        order.add(new Run(round, i + 1, thisRound.get(i)));
      }
    }
    return order;
  }

  /** The trend's base: the first major given. */
  public String base() {
    return Integer.toString(majors.get(0));
  }
}
