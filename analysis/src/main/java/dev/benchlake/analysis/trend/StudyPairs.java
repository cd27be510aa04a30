package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.RunPairs;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The pairs of a paired trend, per version against the base, said once: the pairing most steps
 * share (the same runs matched by the same keys, the same runs dropped), and the steps paired
 * otherwise as the exceptions (a run without a figure for that step). A duet's 48 steps share one
 * pairing, so trend.md lists its pairs once, not once per step (issue 45).
 *
 * @param version the version paired against the base
 * @param shared the pairing of most steps (the first such in step order on a tie)
 * @param sharedBy how many steps have it
 * @param otherwise the other steps' pairings, by step, in step order
 */
record StudyPairs(String version, RunPairs shared, int sharedBy, Map<String, RunPairs> otherwise) {
  /** One per paired version, in the report's version order. */
  static List<StudyPairs> of(TrendReport r) {
    List<StudyPairs> all = new ArrayList<>();
    for (String version : r.versions()) {
      Map<String, RunPairs> byStep = new LinkedHashMap<>();
      for (TrendReport.StepTrend step : r.steps()) {
        step.versions().stream().filter(v -> v.version().equals(version) && v.pairs() != null).findFirst()
            .ifPresent(v -> byStep.put(step.step(), v.pairs()));
      }
      if (!byStep.isEmpty()) {
        all.add(of(version, byStep));
      }
    }
    return all;
  }

  private static StudyPairs of(String version, Map<String, RunPairs> byStep) {
    // Steps differ in their figures, never in which runs make a pair: compare the pairings by runs.
    Map<List<Object>, List<String>> stepsByPairing = new LinkedHashMap<>();
    byStep.forEach((step, pairs) -> stepsByPairing.computeIfAbsent(runsOf(pairs), k -> new ArrayList<>()).add(step));
    List<String> most = stepsByPairing.values().stream().reduce((a, b) -> b.size() > a.size() ? b : a).orElseThrow();
    Map<String, RunPairs> otherwise = new LinkedHashMap<>(byStep);
    most.forEach(otherwise::remove);
    return new StudyPairs(version, byStep.get(most.get(0)), most.size(), otherwise);
  }

  /** Which runs a pairing matched under which keys, and which it dropped: all but the figures. */
  private static List<Object> runsOf(RunPairs pairs) {
    List<Object> runs = new ArrayList<>();
    pairs.pairs().forEach(p -> runs.add(List.of(p.key(), p.runIds(), p.cpuSets() == null ? "" : p.cpuSets())));
    runs.addAll(pairs.dropped());
    return runs;
  }
}
