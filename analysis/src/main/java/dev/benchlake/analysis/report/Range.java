package dev.benchlake.analysis.report;

/** A closed interval of a report; either bound null when the data cannot bound it. */
public record Range(Double low, Double high) {
  public static final Range UNBOUNDED = new Range(null, null);
}
