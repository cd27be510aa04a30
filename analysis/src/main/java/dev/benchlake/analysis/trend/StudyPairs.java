package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.report.Pairing;
import dev.benchlake.analysis.report.RunPairs;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pairs of a paired trend, per version against the base, said once: every pair any step used
 * (a key names one run on each side, so the steps' pairs never disagree on runs), with how many
 * steps each served, and the steps that used fewer as exceptions, by their keys only. A duet's 48
 * steps share its rounds' pairs, and a study run until decided drops a step from the rounds after
 * it is decided, so most steps of a long study use some of them: trend.md lists each pair once and
 * each step's rounds in words, never a step's run ids again (issues 45, 47).
 *
 * @param version the version paired against the base
 * @param all every pair of any step, in the order of their keys ({@link #KEY_ORDER}; none dropped)
 * @param stepsByKey how many steps each pair of {@code all} served, by key
 * @param complete how many steps used every pair of {@code all} and dropped no run
 * @param otherwise the other steps' pairings, by step, in step order, each with the runs it dropped of
 *     its own pairs only
 * @param otherPairsRuns how many of the base's runs belong to other versions' pairs (a duet of several
 *     majors: each round pairs the base with each of them), at the most of any step; 0 otherwise
 */
record StudyPairs(String version, RunPairs all, Map<String, Integer> stepsByKey, int complete,
    Map<String, RunPairs> otherwise, int otherPairsRuns) {
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
    Map<String, RunPairs.Pair> union = new LinkedHashMap<>();
    Map<String, Integer> steps = new LinkedHashMap<>();
    byStep.values().forEach(pairs -> pairs.pairs().forEach(p -> {
      union.putIfAbsent(p.key(), p);
      steps.merge(p.key(), 1, Integer::sum);
    }));
    List<RunPairs.Pair> ordered = new ArrayList<>(union.values());
    ordered.sort(Comparator.comparing(RunPairs.Pair::key, KEY_ORDER));
    // A duet of several majors pairs each with the base's runs of its own pair (pair=11v12): the base's
    // other runs, the other majors' partners, are no loss of this version's and are not listed.
    Set<String> ownPair = new LinkedHashSet<>();
    ordered.forEach(p -> parts(p.key()).stream().filter(k -> k.startsWith(Pairing.PAIR_LABEL + "=")).forEach(ownPair::add));
    Map<String, RunPairs> otherwise = new LinkedHashMap<>();
    int otherRuns = 0;
    for (Map.Entry<String, RunPairs> e : byStep.entrySet()) {
      RunPairs pairs = e.getValue();
      List<RunPairs.Dropped> own = pairs.dropped().stream().filter(d -> ownPair.isEmpty()
          || parts(d.key()).stream().anyMatch(ownPair::contains)).toList();
      otherRuns = Math.max(otherRuns, pairs.dropped().size() - own.size());
      if (pairs.size() < union.size() || !own.isEmpty()) {
        otherwise.put(e.getKey(), new RunPairs(pairs.pairs(), own));
      }
    }
    Map<String, Integer> stepsByKey = new LinkedHashMap<>();
    ordered.forEach(p -> stepsByKey.put(p.key(), steps.get(p.key())));
    return new StudyPairs(version, new RunPairs(ordered, List.of()), stepsByKey, byStep.size() - otherwise.size(),
        otherwise, otherRuns);
  }

  private static final java.util.regex.Pattern TOKEN = java.util.regex.Pattern.compile("[0-9]+|[^0-9]+");

  /** Keys in reading order: the numbers in them compared as numbers ({@code round=2} before {@code round=10}). */
  static final Comparator<String> KEY_ORDER = (a, b) -> {
    java.util.regex.Matcher x = TOKEN.matcher(a);
    java.util.regex.Matcher y = TOKEN.matcher(b);
    while (x.find() && y.find()) {
      String u = x.group();
      String v = y.group();
      boolean numbers = Character.isDigit(u.charAt(0)) && Character.isDigit(v.charAt(0));
      int c = numbers ? new java.math.BigInteger(u).compareTo(new java.math.BigInteger(v)) : u.compareTo(v);
      if (c != 0) {
        return c;
      }
    }
    return a.compareTo(b);
  };


  /** How many steps were paired at this version. */
  int steps() {
    return complete + otherwise.size();
  }

  /**
   * A step's pairing said by its keys, against every pair of the version: {@code 4 of 10 pairs
   * (round=1–4)}, then the runs it dropped ({@link RunPairs#describeDropped}) if any.
   */
  String describe(RunPairs pairs) {
    return pairs.size() + " of " + all.size() + " pairs" + (pairs.size() == 0 ? ""
        : " (" + keysInWords(pairs.pairs().stream().map(RunPairs.Pair::key).sorted(KEY_ORDER).toList()) + ")")
        + (pairs.dropped().isEmpty() ? "" : ". " + pairs.describeDropped());
  }

  /**
   * Keys in few words: the parts every key of the version shares left out (a duet of several
   * majors' {@code pair=11v14}), and a label's consecutive numbers as a range, {@code round=1–5, 7–10}.
   */
  String keysInWords(List<String> keys) {
    Set<String> common = new LinkedHashSet<>(parts(all.pairs().get(0).key()));
    all.pairs().forEach(p -> common.retainAll(parts(p.key())));
    List<String> stripped = keys.stream().map(k -> String.join(", ", parts(k).stream()
        .filter(p -> !common.contains(p)).toList())).toList();
    List<String> shown = stripped.contains("") ? keys : stripped;
    String label = null;
    List<Integer> numbers = new ArrayList<>();
    for (String key : shown) {
      int eq = key.indexOf('=');
      String value = eq < 0 ? "" : key.substring(eq + 1);
      if (eq < 0 || key.contains(",") || !value.matches("[0-9]{1,9}") || (label != null
          && !label.equals(key.substring(0, eq)))) {
        return String.join("; ", shown);
      }
      label = key.substring(0, eq);
      numbers.add(Integer.parseInt(value));
    }
    return label == null ? "" : label + "=" + ranges(numbers);
  }

  /** {@code 1–5, 7–10}: runs of consecutive numbers, in the given order. */
  private static String ranges(List<Integer> numbers) {
    List<String> out = new ArrayList<>();
    int start = numbers.get(0);
    int end = start;
    for (int n : numbers.subList(1, numbers.size())) {
      if (n == end + 1) {
        end = n;
      } else {
        out.add(start == end ? Integer.toString(start) : start + "–" + end);
        start = n;
        end = n;
      }
    }
    out.add(start == end ? Integer.toString(start) : start + "–" + end);
    return String.join(", ", out);
  }

  private static List<String> parts(String key) {
    return Arrays.asList(key.split(", "));
  }
}
