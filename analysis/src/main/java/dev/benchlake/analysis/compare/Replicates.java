package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Side;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the runs' server starts say of their independence. Runs that share one server start share
 * its caches, its data layout and its plans: they replicate less than their number suggests, and
 * the between-run variance they show (which every interval rests on) is too small.
 */
final class Replicates {
  private Replicates() {}

  static List<String> describe(RunGroups groups) {
    List<String> sentences = new ArrayList<>();
    for (Side side : Side.values()) {
      group(side.label(), groups.runs().get(side), groups.serverStarts(), sentences);
    }
    return sentences;
  }

  private static void group(String role, List<String> runs, Map<String, String> starts, List<String> into) {
    Map<String, List<String>> byStart = new TreeMap<>();
    for (String run : runs) {
      String start = starts.get(run);
      if (start != null) {
        byStart.computeIfAbsent(start, s -> new ArrayList<>()).add(run);
      }
    }
    if (byStart.isEmpty()) {
      into.add("Server starts were not recorded for the " + role + " runs: whether they are independent replicates"
          + " is unknown.");
      return;
    }
    byStart.forEach((start, shared) -> {
      if (shared.size() > 1) {
        into.add("The " + role + " runs " + String.join(", ", shared) + " share one server start (" + start
            + "): these runs are not independent replicates, and the intervals may be too narrow.");
      }
    });
  }
}
