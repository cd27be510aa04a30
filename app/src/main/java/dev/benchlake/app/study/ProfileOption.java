package dev.benchlake.app.study;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import picocli.CommandLine.Option;

/**
 * {@code --profile[=HZ]} of the quickstart and the studies: every measured run's loadgen profiles
 * its embedded server over each step's measured window ({@code loadgen --profile}), the a/a
 * control's runs among them, so that perf's cost lands on both sides of a pair alike; the side
 * JVMs' warm-up passes are not profiled (their runs are deleted).
 */
public final class ProfileOption {
  @Option(names = "--profile", paramLabel = "HZ", arity = "0..1", fallbackValue = "" + Loadgen.PROFILE_DEFAULT_HZ,
      description = "Every measured run records a CPU profile of its embedded server over each step's measured window "
          + "(loadgen --profile: perf record -g, a sample per 1/HZ s of each server process's CPU time; default HZ: "
          + Loadgen.PROFILE_DEFAULT_HZ + "), kept as profiles/STEP.perf.data and STEP.txt in the run's folder and "
          + "linked from the reports. Both sides are profiled alike; the warm-up passes are not. Embedded servers only.")
  Integer hz;

  /** The rate asked for, or null: no profile. */
  public Integer hz() {
    return hz;
  }

  /**
   * Refuses {@code --profile} with a server by URL (exit 2), as loadgen does: its processes are not
   * the study's to profile.
   *
   * @param urlOptions the options that gave a server by URL ({@code --a-jdbc-url}); empty when none
   */
  public void refuseServersByUrl(java.util.List<String> urlOptions) {
    if (hz != null && !urlOptions.isEmpty()) {
      throw new BadInputException("--profile profiles embedded servers: a server by URL's processes ("
          + String.join(", ", urlOptions) + ") are not the study's to profile");
    }
  }
}
