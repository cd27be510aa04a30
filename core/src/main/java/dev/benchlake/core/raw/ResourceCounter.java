package dev.benchlake.core.raw;

/**
 * One cumulative counter read before and after a step ({@link StepResources}), as the operating
 * system or PostgreSQL gave it: the raw readings, not only their difference, so that a reader can
 * check a figure against the source.
 *
 * @param name one of {@link ResourceMetric}'s counter names, e.g. {@code server_cpu_user_ns}
 * @param before the reading when the step started
 * @param after the reading when it ended
 * @param unit e.g. {@code ns}, {@code bytes}, {@code blocks}, {@code count}
 */
public record ResourceCounter(String name, long before, long after, String unit) {
  /** What the step added. */
  public long delta() {
    return after - before;
  }
}
