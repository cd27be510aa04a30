package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.report.Sides;
import java.util.List;

/**
 * What a page needs to draw one step, bounded in size whatever the number of tasks: the inverse
 * ECDF of each side at fixed probabilities (exact quantiles) and a histogram on shared,
 * log-spaced edges. The edges are bucket boundaries of the engine, so the counts are exact for
 * them.
 *
 * @param ecdfP probabilities, ascending from 0 to 1
 * @param ecdfS each side's quantile at each probability (empty without latencies)
 * @param histogramEdgesS {@code k + 1} edges of {@code k} bins {@code [edge_i, edge_{i+1})}
 * @param histogram each side's count per bin
 */
public record Plot(List<Double> ecdfP, Sides<List<Double>> ecdfS, List<Double> histogramEdgesS,
    Sides<List<Long>> histogram) {}
