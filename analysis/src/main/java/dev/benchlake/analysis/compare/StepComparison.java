package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.stats.Verdict;

/**
 * One step compared: both groups, the within-run (descriptive) tests, the run level, and what it
 * means. The verdict rests on the run level's median θ ({@link RunLevel#median()}) and nothing else.
 */
public record StepComparison(String step, GroupStatistics baseline, GroupStatistics candidate, Tests tests,
    RunLevel runLevel, Verdict verdict, String explanation, Plot plot) {}
