package dev.benchlake.analysis.compare;

import java.util.List;

/**
 * What a page needs to draw one step, bounded in size whatever the number of tasks: the inverse
 * ECDF of each group at fixed probabilities (exact quantiles) and a histogram on shared,
 * log-spaced edges. The edges are bucket boundaries of the engine, so the counts are exact for
 * them.
 *
 * @param ecdfP probabilities, ascending from 0 to 1
 * @param baselineEcdfS the baseline's quantile at each probability (empty without latencies)
 * @param histogramEdgesS {@code k + 1} edges of {@code k} bins {@code [edge_i, edge_{i+1})}
 */
public record Plot(List<Double> ecdfP, List<Double> baselineEcdfS, List<Double> candidateEcdfS,
    List<Double> histogramEdgesS, List<Long> baselineHistogram, List<Long> candidateHistogram) {}
