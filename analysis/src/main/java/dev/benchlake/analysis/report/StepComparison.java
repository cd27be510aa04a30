package dev.benchlake.analysis.report;

/** One step compared: both groups, the tests, the run level, and what it means. */
public record StepComparison(String step, GroupStatistics baseline, GroupStatistics candidate, Tests tests,
    RunLevel runLevel, Verdict verdict, String explanation, Plot plot) {}
