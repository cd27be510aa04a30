package dev.benchlake.core.raw;

/**
 * A whole-step figure the run computed itself ({@code step_metrics} in the manifest), where its
 * tasks alone do not give the figure the way a study counts it: mytools' {@code scan} is one
 * table scan per task, but the study reports rows scanned per second. Ingest stores each as a
 * whole-run row of the warehouse's {@code step_metrics}, and {@code trend} prefers a run's own
 * figure of a metric to the one it would derive from its tasks.
 *
 * @param step the step (the {@code step} of its tasks)
 * @param metric e.g. {@code qps}
 * @param value the figure
 * @param unit e.g. {@code 1/s}
 * @param definition how it was counted, in words (e.g. rows scanned per second)
 */
public record StepMetric(String step, String metric, double value, String unit, String definition) {}
