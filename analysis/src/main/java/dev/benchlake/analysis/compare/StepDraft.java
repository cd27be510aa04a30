package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.GroupStatistics;
import dev.benchlake.analysis.report.Plot;
import dev.benchlake.analysis.report.RunLevel;
import dev.benchlake.analysis.report.Tests;

/** One step's figures before the steps are weighed together (corrections, verdicts). */
record StepDraft(String step, GroupStatistics baseline, GroupStatistics candidate, Tests tests, RunLevel runLevel,
    Plot plot) {}
