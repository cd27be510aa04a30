package dev.benchlake.analysis.trend;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.confounders.TableHealthConfounders;
import dev.benchlake.analysis.trend.TrendReport.Flag;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The table-maintenance confounders of a trend: per step and version against the base (what the
 * relative and its verdict compare), and per change between consecutive versions (what a flag
 * calls an improvement or a regression). Null at the base and where the step has no figure.
 *
 * @param vsBase step → version → confounders
 * @param vsPrevious {@link #key} of a flag → confounders
 */
public record TrendConfounders(Map<String, Map<String, List<Confounder>>> vsBase,
    Map<String, List<Confounder>> vsPrevious) {
  /** A trend without the check (the analysis alone, before the warehouse is read). */
  public static final TrendConfounders NONE = new TrendConfounders(Map.of(), Map.of());

  /** The confounders of {@code step} at {@code version} against the base, or null. */
  public List<Confounder> at(String step, String version) {
    return vsBase.getOrDefault(step, Map.of()).get(version);
  }

  /** The confounders of the change {@code flag} calls, or null. */
  public List<Confounder> of(Flag flag) {
    return vsPrevious.get(key(flag.step(), flag.from(), flag.to()));
  }

  static String key(String step, String from, String to) {
    return step + '\u0000' + from + '\u0000' + to;
  }

  /** Checks every step of {@code report} against its base and every flagged change. */
  public static TrendConfounders check(TrendReport report, TableHealthConfounders rule) {
    Map<String, Map<String, List<Confounder>>> vsBase = new LinkedHashMap<>();
    List<String> baseRuns = report.runs().get(report.base());
    for (StepTrend s : report.steps()) {
      Map<String, List<Confounder>> byVersion = new LinkedHashMap<>();
      for (String v : report.versions()) {
        boolean compared = !v.equals(report.base()) && s.values().get(v) != null && s.values().get(report.base()) != null;
        byVersion.put(v, compared ? rule.between(s.step(), report.base(), baseRuns, v, report.runs().get(v)) : null);
      }
      vsBase.put(s.step(), byVersion);
    }
    Map<String, List<Confounder>> vsPrevious = new LinkedHashMap<>();
    for (Flag f : report.flags()) {
      vsPrevious.put(key(f.step(), f.from(), f.to()),
          rule.between(f.step(), f.from(), report.runs().get(f.from()), f.to(), report.runs().get(f.to())));
    }
    return new TrendConfounders(vsBase, vsPrevious);
  }
}
