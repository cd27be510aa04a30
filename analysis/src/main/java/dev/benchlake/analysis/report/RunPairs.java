package dev.benchlake.analysis.report;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of two sides matched into pairs by a key (a duet's round, or the labels of
 * {@code --pair-by}): what a paired analysis used and what it left out, for a report to list
 * ({@code run_level.pairs}, and the runs dropped with why).
 *
 * <p>A pair is the one baseline run and the one candidate run that share a key, both with a
 * figure. A run whose key has no run with a figure on the other side is dropped, with the reason.
 * Two runs of one side with the same key do not line up into pairs at all: that is bad input
 * ({@link BadInputException}), not something to guess around.
 *
 * @param pairs the complete pairs, in the order of the baseline's runs
 * @param dropped the runs left without a partner: the baseline's first, then the candidate's
 */
public record RunPairs(List<Pair> pairs, List<Dropped> dropped) {
  /**
   * One pair: its key, each side's run and figure, and each side's CPU set (a duet run's
   * {@code cpus} label; null where the runs do not carry one).
   */
  public record Pair(String key, Sides<String> runIds, Sides<Double> figures, Sides<String> cpuSets) {
    public Pair(String key, Sides<String> runIds, Sides<Double> figures) {
      this(key, runIds, figures, null);
    }
  }

  /** A run left out, its side, its key, and why: {@code no candidate run with a figure has round=4}. */
  public record Dropped(String runId, Side side, String key, String reason) {}

  public RunPairs {
    pairs = List.copyOf(pairs);
    dropped = List.copyOf(dropped);
  }

  /**
   * @param figuresByRun each side's figures by run id, in a fixed order
   * @param keyByRun the pairing key of every run in {@code figuresByRun} ({@link PairKeys})
   * @throws BadInputException when two runs of one side share a key
   */
  public static RunPairs match(Sides<? extends Map<String, Double>> figuresByRun, Map<String, String> keyByRun) {
    return match(figuresByRun, keyByRun, Map.of());
  }

  /**
   * As {@link #match(Sides, Map)}, each pair with its runs' CPU sets.
   *
   * @param cpuSetByRun a duet run's CPU set by run id ({@code cpus} label); runs absent have none
   */
  public static RunPairs match(Sides<? extends Map<String, Double>> figuresByRun, Map<String, String> keyByRun,
      Map<String, String> cpuSetByRun) {
    Sides<Map<String, String>> runByKey = figuresByRun.mapWithSide((side, figures) -> byKey(side, figures, keyByRun));
    List<Pair> pairs = new ArrayList<>();
    List<Dropped> dropped = new ArrayList<>();
    for (Side side : Side.values()) {
      Side other = side == Side.BASELINE ? Side.CANDIDATE : Side.BASELINE;
      runByKey.get(side).forEach((key, runId) -> {
        String partner = runByKey.get(other).get(key);
        if (partner == null) {
          dropped.add(new Dropped(runId, side, key, "no " + other.label() + " run with a figure has " + key));
        } else if (side == Side.BASELINE) {
          Sides<String> runIds = Sides.of(runId, partner);
          Sides<String> sets = runIds.both(cpuSetByRun::containsKey) ? runIds.map(cpuSetByRun::get) : null;
          pairs.add(new Pair(key, runIds, runIds.zip(figuresByRun, (id, figures) -> figures.get(id)), sets));
        }
      });
    }
    return new RunPairs(pairs, dropped);
  }

  /** The complete pairs. */
  public int size() {
    return pairs.size();
  }

  /**
   * In words: {@code Paired: 3 pairs (round=1: b1 with c1; …). Dropped for want of a partner: b4
   * (baseline, round=4): no candidate run with a figure has round=4.}
   */
  public String describe() {
    String used = pairs.isEmpty() ? "no complete pair"
        : size() + (size() == 1 ? " pair" : " pairs") + " (" + String.join("; ", pairs.stream()
            .map(p -> p.key() + ": " + p.runIds().baseline() + " with " + p.runIds().candidate()).toList()) + ")";
    return "Paired: " + used + ". " + (dropped.isEmpty() ? "No run was dropped." : describeDropped());
  }

  /** {@code Dropped for want of a partner: b4 (baseline, round=4): no candidate run with a figure has round=4.} */
  public String describeDropped() {
    return "Dropped for want of a partner: " + String.join("; ", dropped.stream()
        .map(d -> d.runId() + " (" + d.side().label() + ", " + d.key() + "): " + d.reason()).toList()) + ".";
  }

  /** Each side's figures, pair by pair in the same order: what a paired estimate takes. */
  public Sides<double[]> figures() {
    return Sides.by(side -> pairs.stream().mapToDouble(p -> p.figures().get(side)).toArray());
  }

  /**
   * For each pair, whether its baseline ran on set one (the first pair's baseline set), when the
   * pairs swap two CPU sets: every pair's runs carry a set, the two sides' sets differ in every
   * pair, and there are exactly two sets. Null otherwise: no set to fit.
   */
  public boolean[] baselineOnSetOne() {
    if (pairs.isEmpty() || pairs.stream().anyMatch(p -> p.cpuSets() == null
        || p.cpuSets().baseline().equals(p.cpuSets().candidate()))) {
      return null;
    }
    Sides<String> first = pairs.get(0).cpuSets();
    boolean[] onSetOne = new boolean[pairs.size()];
    for (int i = 0; i < onSetOne.length; i++) {
      Sides<String> sets = pairs.get(i).cpuSets();
      boolean one = sets.baseline().equals(first.baseline()) && sets.candidate().equals(first.candidate());
      boolean two = sets.baseline().equals(first.candidate()) && sets.candidate().equals(first.baseline());
      if (!one && !two) {
        return null;
      }
      onSetOne[i] = one;
    }
    return onSetOne;
  }

  /** One side's run id by key, in the side's order; refuses a key taken twice. */
  private static Map<String, String> byKey(Side side, Map<String, Double> figures, Map<String, String> keyByRun) {
    Map<String, String> runByKey = new LinkedHashMap<>();
    for (String runId : figures.keySet()) {
      String key = keyByRun.get(runId);
      if (key == null) {
        throw new IllegalArgumentException("run " + runId + " has no pairing key");
      }
      String earlier = runByKey.putIfAbsent(key, runId);
      if (earlier != null) {
        throw PairKeys.notLinedUp(side, key, earlier, runId);
      }
    }
    return runByKey;
  }
}
