package dev.benchlake.core.raw;

import java.util.List;

/**
 * A CPU profile of an embedded server's process tree over one step's measured window
 * ({@code loadgen --profile}), kept beside the run: {@code perf record -e cpu-clock -c <1 s / hz> -g}
 * on the postmaster and its children, and {@code perf report --stdio --no-children}'s top symbols. Either
 * the files and their top symbols, or {@code notProfiled} with why (perf absent or refused, a
 * server by URL); a profile that could not be made never fails the run.
 *
 * @param data the {@code perf.data} file, relative to the run directory (e.g. {@code profiles/point-select.perf.data})
 * @param summary the text summary, relative to the run directory
 * @param hz samples per second of a process's CPU time (one every {@code 1/hz} s of it)
 * @param scope what the samples cover: {@code user and kernel}, or {@code user space only} with why
 *     (a plain user under {@code kernel.perf_event_paranoid=2} profiles its own processes' user space only)
 * @param samples the samples perf took
 * @param top the symbols with the largest share of the samples, largest first
 * @param notProfiled why there is no profile; null when there is one
 */
public record StepProfile(String data, String summary, Integer hz, String scope, Long samples, List<Symbol> top,
    String notProfiled) {

  public StepProfile {
    top = top == null ? List.of() : List.copyOf(top);
  }

  /** A step without a profile, and why. */
  public static StepProfile notProfiled(String why) {
    return new StepProfile(null, null, null, null, null, List.of(), why);
  }

  /**
   * One line of the summary.
   *
   * @param share the symbol's share of the samples, in percent
   * @param dso the binary or library it is in ({@code postgres}, {@code [kernel.kallsyms]})
   * @param symbol the function, or its address when perf could not name it
   */
  public record Symbol(double share, String dso, String symbol) {}
}
