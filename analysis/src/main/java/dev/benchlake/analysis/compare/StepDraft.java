package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.compare.GroupStatistics;
import dev.benchlake.analysis.compare.Plot;
import dev.benchlake.analysis.compare.RunLevel;
import dev.benchlake.analysis.compare.Tests;
import dev.benchlake.analysis.stats.Interval;

/**
 * One step's figures before the steps are weighed together (corrections, verdicts).
 *
 * @param runLevel the per-run figures, without the effects (those need every step)
 * @param withinRunSeLogMedian root mean square over the runs of each run's standard error of its
 *     log median; NaN when undefined
 * @param bootstrapMedian two-stage bootstrap interval of the median family's θ
 */
record StepDraft(String step, GroupStatistics baseline, GroupStatistics candidate, Tests tests, RunLevel runLevel,
    Plot plot, double withinRunSeLogMedian, double withinRunSeLogP99, Interval bootstrapMedian, Interval bootstrapP99) {}
