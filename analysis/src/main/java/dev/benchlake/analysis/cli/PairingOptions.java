package dev.benchlake.analysis.cli;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code --pair-by}, as {@code compare} and {@code trend} take it: the labels that pair a run of one
 * side with a run of the other ({@link dev.benchlake.analysis.report.Pairing} chooses the analysis
 * from them and from the runs' own duet labels, and checks them).
 */
public final class PairingOptions {
  @Option(names = "--pair-by", paramLabel = "LABEL", split = ",",
      description = "Pair each run with the run of the other side (trend: of the base) that has the same value of"
          + " this label (or labels, comma-separated), and compare in pairs: theta is the Huber M-estimate of the"
          + " per-pair log ratios (one disturbed pair cannot overturn it), its interval a t interval. Use it when the sides were measured in"
          + " rounds that share the machine's drift, e.g. --pair-by round for interleaved runs. Runs measured in a"
          + " duet (label design=duet) are paired by their round without it. A run without a partner is dropped"
          + " and listed; a run without the label, or two runs of one side with one value, is bad input (exit 2).")
  List<String> pairBy = new ArrayList<>();

  /** The labels, as typed; empty without the option. */
  public List<String> labels() {
    return List.copyOf(pairBy);
  }
}
