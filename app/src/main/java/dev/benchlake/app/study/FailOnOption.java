package dev.benchlake.app.study;

import dev.benchlake.analysis.cli.FailOn;
import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.core.cli.ExitCode;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code --fail-on GATE[,GATE…]} of the quickstart and the studies: exit 3, with one line on stderr saying
 * which gate failed and why, when the finished study's calls or its a/a control fail a gate ({@link FailOn},
 * the one definition {@code compare --fail-on} reads too). Without it a study exits 0 whatever it found: it
 * decides and says so on stdout.
 */
public final class FailOnOption {
  @Option(names = "--fail-on", paramLabel = "GATE[,GATE…]", split = ",", converter = FailOn.OfStudy.class,
      description = "Exit 3 with one line on stderr when the study ends so: unreliable (the a/a control did not "
          + "come out equivalent), undecided (a step is inconclusive), regression (a step is slower), inconclusive "
          + "(slower or inconclusive), not-equivalent (anything but equivalent).")
  List<FailOn> gates = new ArrayList<>();

  /**
   * The study's exit code: {@code ended} when it is not OK (a study cut short stays 1), else 3 when a gate
   * fails (its line on {@code err}), else OK.
   */
  public int exitCode(int ended, String command, List<FailOn.Call> calls, AaControl control, PrintWriter err) {
    if (ended != ExitCode.OK) {
      return ended;
    }
    Optional<String> failure = FailOn.studyFailure(command, gates, calls, control);
    failure.ifPresent(line -> {
      err.println(line);
      err.flush();
    });
    return failure.isPresent() ? ExitCode.REGRESSION : ExitCode.OK;
  }
}
