package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.report.Sides;

/**
 * Errors compared at run level: each run's error rate (failed / all tasks of the step) is one
 * observation, and the mean rates of the sides are compared by Welch's t on the per-run rates
 * (not on logs: a rate may be 0). Fisher's test on pooled tasks stays among the descriptive tests.
 *
 * @param meanRate each side's mean per-run rate; null without runs
 * @param difference candidate's mean rate − baseline's
 * @param ci95 Welch's 95 % interval of that difference; unbounded with fewer than two runs a side
 * @param p two-sided; null when undefined (e.g. no error at all)
 */
public record RunErrors(Sides<Double> meanRate, Double difference, Range ci95, Double p) {}
