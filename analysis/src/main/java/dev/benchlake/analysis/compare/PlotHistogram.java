package dev.benchlake.analysis.compare;

import dev.benchlake.analysis.engine.LatencyBuckets;
import java.util.ArrayList;
import java.util.List;

/**
 * A histogram for plotting, on edges shared by both groups: about {@code bins} bins, log-spaced
 * between the smallest and the largest latency (linearly when a latency is 0 or negative), each
 * edge moved to the nearest engine bucket boundary so that the counts — sums of whole buckets —
 * are exact for the edges reported.
 *
 * @param edgesNs {@code k + 1} ascending edges; bin i is {@code [edgesNs[i], edgesNs[i+1])}
 */
record PlotHistogram(long[] edgesNs, long[] baselineCounts, long[] candidateCounts) {
  static final int BINS = 40;

  static PlotHistogram of(long[] buckets, long[] baselineCounts, long[] candidateCounts, int bins) {
    if (buckets.length == 0) {
      return new PlotHistogram(new long[0], new long[0], new long[0]);
    }
    long low = LatencyBuckets.lowerBound(buckets[0]);
    long high = LatencyBuckets.upperBound(buckets[buckets.length - 1]);
    List<Long> edges = new ArrayList<>();
    edges.add(low);
    for (int i = 1; i < bins; i++) {
      double ideal = low > 0
          ? Math.exp(Math.log(low) + (Math.log(high + 1.0) - Math.log(low)) * i / bins)
          : low + ((double) high + 1 - low) * i / bins;
      long edge = LatencyBuckets.lowerBound(LatencyBuckets.of((long) Math.min(Math.max(ideal, low), high)));
      if (edge > edges.get(edges.size() - 1)) {
        edges.add(edge);
      }
    }
    edges.add(high == Long.MAX_VALUE ? high : high + 1);
    long[] edgesNs = edges.stream().mapToLong(Long::longValue).toArray();
    long[] base = new long[edgesNs.length - 1];
    long[] cand = new long[edgesNs.length - 1];
    int bin = 0;
    for (int k = 0; k < buckets.length; k++) {
      long start = LatencyBuckets.lowerBound(buckets[k]);
      while (bin + 1 < base.length && start >= edgesNs[bin + 1]) {
        bin++;
      }
      base[bin] += baselineCounts[k];
      cand[bin] += candidateCounts[k];
    }
    return new PlotHistogram(edgesNs, base, cand);
  }
}
