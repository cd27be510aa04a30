package dev.benchlake.analysis.report;

import dev.benchlake.core.cli.BadInputException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.regex.Pattern;

/**
 * The key that pairs a run with its partner on the other side: the values of the pairing labels,
 * {@code round=3} (a duet's round, {@code --pair-by round}) or {@code round=3, pair=11v14} (a duet
 * of a study of several majors, where each round holds one pair of runs per major compared with
 * the first). Checked here, once, before anything is computed or written: every run must carry
 * every pairing label, and no two runs of one side may share a key.
 */
public final class PairKeys {
  /** Between a key's parts: {@code round=3, pair=sysbench}. */
  private static final String SEPARATOR = ", ";

  private PairKeys() {}

  /**
   * @param labelsByRun each side's runs (their labels by run id)
   * @param keyLabels the labels whose values make the key, in the order the key names them
   * @param option how the user chose the labels, for messages: {@code --pair-by round}, or
   *     {@code the duet's round label}
   * @return every run's key, by run id
   * @throws BadInputException naming the first run without a pairing label, or the first key two
   *     runs of one side share
   */
  public static Map<String, String> of(Sides<? extends Map<String, ? extends Map<String, String>>> labelsByRun,
      List<String> keyLabels, String option) {
    if (keyLabels.isEmpty()) {
      throw new IllegalArgumentException("no pairing label");
    }
    Map<String, String> keyByRun = new LinkedHashMap<>();
    for (Side side : Side.values()) {
      Map<String, String> runByKey = new HashMap<>();
      labelsByRun.get(side).forEach((runId, labels) -> {
        StringJoiner key = new StringJoiner(SEPARATOR);
        for (String label : keyLabels) {
          String value = labels.get(label);
          if (value == null) {
            throw new BadInputException(option + ": " + side.label() + " run " + runId + " has no label '" + label
                + "', so it cannot be paired; pair by a label every run carries (benchlake runs lists them), or leave"
                + " the option out for the unpaired analysis");
          }
          key.add(label + "=" + value);
        }
        String earlier = runByKey.putIfAbsent(key.toString(), runId);
        if (earlier != null) {
          throw notLinedUp(side, key.toString(), earlier, runId);
        }
        keyByRun.put(runId, key.toString());
      });
    }
    return keyByRun;
  }

  /**
   * The part of a key that one label makes: {@code round=3} of {@code round=3, pair=sysbench}; null
   * when the key has no such label.
   */
  public static String part(String key, String label) {
    String prefix = label + "=";
    for (String part : key.split(Pattern.quote(SEPARATOR))) {
      if (part.startsWith(prefix)) {
        return part;
      }
    }
    return null;
  }

  /** Two runs of one side with one key: the pairs do not line up. */
  static BadInputException notLinedUp(Side side, String key, String oneRun, String otherRun) {
    return new BadInputException("pairs do not line up: " + side.label() + " runs " + oneRun + " and " + otherRun
        + " both have " + key + ", and a pair is one run of each side; select one run per side and key, or pair by"
        + " labels that tell them apart");
  }
}
