package dev.benchlake.analysis.report;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How a comparison's runs are paired, and so which analysis it uses: the one place compare and
 * trend choose it. Chosen from the runs' labels before anything is computed or written:
 *
 * <ul>
 *   <li>{@code --pair-by KEY[,KEY…]} given: paired by those labels ({@link #design()}
 *       {@code paired-by:round}), e.g. interleaved rounds that share the machine's drift;
 *   <li>else every run of both sides carries {@code design=duet}: paired by the duet's {@code round}
 *       (and {@code pair}, when the runs carry it: a study of several majors), design {@code duet};
 *   <li>else two independent groups, design {@code unpaired}: Welch's t on the logs, as always.
 * </ul>
 *
 * <p>The keys are checked here ({@link PairKeys}): a run without a pairing label, or two runs of
 * one side with one key, is bad input naming the run.
 *
 * @param design as report.json's top-level {@code design} names it: {@code unpaired}, {@code duet} or
 *     {@code paired-by:<labels>}
 * @param reason why this analysis, one sentence, for the reports' methods
 * @param method the analysis: {@link EffectMethod#UNPAIRED}, or a {@link PairedByKey}
 */
public record Pairing(String design, String reason, EffectMethod method) {
  /** The label a duet writes on both runs of a round. */
  public static final String DESIGN_LABEL = "design";
  /** The duet's design label value. */
  public static final String DUET = "duet";
  /** The label of a duet's round: the two runs of a pair share it. */
  public static final String ROUND_LABEL = "round";
  /** The label of a pair within a round, where a round holds several (study versions with several majors). */
  public static final String PAIR_LABEL = "pair";
  /** The labels a duet pairs by: the round, and within it the pair. */
  public static final List<String> DUET_KEYS = List.of(ROUND_LABEL, PAIR_LABEL);
  /** The label a duet writes on each run: the CPU set its processes had ({@link PairedByKey} fits it). */
  public static final String CPUS_LABEL = "cpus";
  /** {@link #design()} of two independent groups. */
  public static final String UNPAIRED_DESIGN = "unpaired";
  /** {@link #design()} of {@code --pair-by}: {@code paired-by:round}. */
  public static final String PAIRED_BY_PREFIX = "paired-by:";

  /** Two independent groups because no pairing applies. */
  public static final Pairing UNPAIRED = new Pairing(UNPAIRED_DESIGN,
      "the runs were not all measured in a duet (label design=duet) and no --pair-by was given, so the two sides are"
          + " independent groups of runs", EffectMethod.UNPAIRED);

  /**
   * The labels {@link #choose} reads of each run: the duet's, and those of {@code pairBy}.
   */
  public static List<String> labelsRead(List<String> pairBy) {
    List<String> labels = new ArrayList<>(List.of(DESIGN_LABEL));
    labels.addAll(DUET_KEYS);
    labels.add(CPUS_LABEL);
    pairBy.stream().filter(l -> !labels.contains(l)).forEach(labels::add);
    return labels;
  }

  /**
   * @param labelsByRun each side's runs, by run id, with (at least) the values of {@link #labelsRead}
   *     they carry (a label a run lacks is absent)
   * @param pairBy the labels of {@code --pair-by}; empty: pair duet runs, else none
   * @throws BadInputException naming the run without a pairing label, or two runs of one side with one key
   */
  public static Pairing choose(Sides<? extends Map<String, ? extends Map<String, String>>> labelsByRun,
      List<String> pairBy) {
    if (!pairBy.isEmpty()) {
      for (String label : pairBy) {
        if (label.isBlank()) {
          throw new BadInputException("--pair-by " + String.join(",", pairBy) + ": a label name is empty; name the"
              + " label that pairs the runs, e.g. --pair-by round");
        }
      }
      String labels = String.join(",", pairBy);
      Map<String, String> keys = PairKeys.of(labelsByRun, pairBy, "--pair-by " + labels);
      return new Pairing(PAIRED_BY_PREFIX + labels, "--pair-by " + labels + " pairs each baseline run with the"
          + " candidate run of the same " + String.join(" and ", pairBy) + ", so θ is" + ROBUST + SET_FIT, new PairedByKey(keys,
          cpuSets(labelsByRun)));
    }
    boolean duet = labelsByRun.both(runs -> !runs.isEmpty()
        && runs.values().stream().allMatch(labels -> DUET.equals(labels.get(DESIGN_LABEL))));
    if (!duet) {
      return UNPAIRED;
    }
    boolean withPair = labelsByRun.either(runs -> runs.values().stream().anyMatch(l -> l.containsKey(PAIR_LABEL)));
    List<String> keyLabels = withPair ? DUET_KEYS : DUET_KEYS.subList(0, 1);
    Map<String, String> keys = PairKeys.of(labelsByRun, keyLabels, "the duet's " + String.join(" and ", keyLabels)
        + " label" + (withPair ? "s" : ""));
    return new Pairing(DUET, "every run carries design=duet: both runs of a " + String.join(" and ", keyLabels)
        + " ran at the same moment on one machine, so each is paired with its partner (what disturbs both runs of a"
        + " pair alike cancels) and θ is" + ROBUST + SET_FIT, new PairedByKey(keys, cpuSets(labelsByRun)));
  }

  /** The paired statistic ({@link dev.benchlake.analysis.stats.HuberLogRatio}), in the reason's words. */
  private static final String ROBUST = " the " + dev.benchlake.analysis.stats.HuberLogRatio.NAME + " of the per-pair"
      + " log ratios (a pair further than 1.345 scale units from the fit pulls only that far, so one disturbed round"
      + " cannot overturn a verdict), its interval the t of Huber's sandwich standard error";

  /** The paired statistic of {@link #leastSquares}, in the reason's words. */
  private static final String LEAST_SQUARES = " the geometric mean of the per-pair ratios and its interval the"
      + " one-sample t of their logs";

  /** What {@link PairedByKey} adds for runs that swap CPU sets, in the reason's words. */
  private static final String SET_FIT = "; where the pairs swap two CPU sets (label cpus) with at least two pairs each"
      + " way, the set is fitted too (a two-period crossover: log ratio = ln θ + set term, fitted alike, df = pairs − 2), so that a"
      + " CPU set that favours whichever side runs on it cancels instead of widening the interval";

  /** Each run's CPU set label, the runs without one left out. */
  private static Map<String, String> cpuSets(Sides<? extends Map<String, ? extends Map<String, String>>> labelsByRun) {
    Map<String, String> sets = new java.util.HashMap<>();
    for (Side side : Side.values()) {
      labelsByRun.get(side).forEach((runId, labels) -> {
        String set = labels.get(CPUS_LABEL);
        if (set != null) {
          sets.put(runId, set);
        }
      });
    }
    return sets;
  }

  /**
   * This pairing with its pairs estimated by least squares ({@link PairedByKey#leastSquares}), the
   * reason saying so: a version study's trend. Unpaired, itself.
   */
  public Pairing leastSquares() {
    return method instanceof PairedByKey paired ? new Pairing(design, reason.replace(ROBUST, LEAST_SQUARES),
        paired.leastSquares()) : this;
  }

  /** Whether the runs are analysed in pairs. */
  public boolean paired() {
    return method instanceof PairedByKey;
  }

  /** {@code paired} or {@code unpaired}: as report.json's {@code run_level.analysis} names it. */
  public String analysis() {
    return method.name();
  }
}
