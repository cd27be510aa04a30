package dev.benchlake.analysis.report;

import dev.benchlake.analysis.stats.RatioDecisions;
import dev.benchlake.analysis.stats.RatioDecisions.Decision;
import dev.benchlake.analysis.stats.RatioEffect;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A family of comparisons decided together (the steps of a compare for one figure; a trend's
 * steps and versions against the base, or against the previous version): {@link RatioDecisions}
 * over the effects that exist, the rest undecided.
 */
public final class FamilyDecisions {
  private FamilyDecisions() {}

  /**
   * @param effects one per comparison, in order; null where no effect can be estimated (it is
   *     left out of the family and its decision is null)
   * @return one decision per effect, in order, null where the effect is null
   */
  public static List<Decision> decide(List<? extends RatioEffect> effects, StatisticsSettings settings,
      Direction direction) {
    List<RatioEffect> family = effects.stream().filter(Objects::nonNull).map(e -> (RatioEffect) e).toList();
    List<Decision> decided = family.isEmpty() ? List.of()
        : RatioDecisions.decide(family, settings, direction.lowerIsBetter());
    Decision[] out = new Decision[effects.size()];
    int k = 0;
    for (int i = 0; i < effects.size(); i++) {
      if (effects.get(i) != null) {
        out[i] = decided.get(k++);
      }
    }
    return new ArrayList<>(Arrays.asList(out));
  }
}
