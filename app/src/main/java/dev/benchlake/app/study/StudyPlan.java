package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A study, as {@link Study} runs it: its rounds of measurements, its section of study.json, how a
 * look decides and what it reports. The quickstart, {@code study ab} and {@code study versions} are
 * plans; everything they share (the rounds, the looks, the a/a control, ingest, the study file) is
 * the driver's.
 *
 * @param <R> what the study reports (a comparison, a trend, or both)
 */
public interface StudyPlan<R> {
  /** Latency above this counts as an error in a study's comparisons. */
  Duration THRESHOLD = Duration.ofSeconds(5);

  /** The prefix of the study's log lines ({@code quickstart}, {@code study}). */
  default String name() {
    return "study";
  }

  /** The prefix of the study's id ({@code ab}, {@code versions}), or null: the study's warehouse holds it alone. */
  String idPrefix();

  /** The order, the a/a rounds' places and the data. */
  long seed();

  Design design();

  /** The comparison rounds: runs per side (run until decided: the most). */
  int rounds();

  int aaRounds();

  /** A duet's CPU sets, else null. */
  DuetCpus cpus();

  /** A duet run until decided: its looks (their last round is {@link #rounds}); else null. */
  SequentialLooks looks();

  /** A duet's rounds in the order they run, the a/a rounds spread through them, and each round's CPU sets. */
  default DuetSchedule schedule() {
    return new DuetSchedule(rounds(), aaRounds(), seed(), looks() == null ? 0 : looks().firstLook());
  }

  /** Checks everything a user can get wrong, starting and writing nothing (the folder {@code out} among it). */
  void validate(Path out);

  /** What only PostgreSQL can tell (a setting it refuses), on servers started for it, before the first run. */
  default void checkSettings(PrintWriter log) {}

  /** Makes the study's folder ready for its first run; what it did besides, in a line on {@code log}. */
  default void prepare(Path out, PrintWriter log) throws IOException {
    Files.createDirectories(out.resolve("runs"));
  }

  /** Every run of a sequential or interleaved study, in order, its folder under {@code runs}. */
  List<StudyRuns.Measurement> unpaired(Path runs, String studyId);

  /**
   * A duet's rounds: each round's pairs, asked for in the schedule's order (a plan may shuffle the
   * pairs of each round from one seeded draw).
   */
  Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId);

  /** Every measurement of a fixed number of rounds, in the order they run. */
  default List<StudyRuns.Measurement> measurements(Path runs, String studyId) {
    if (design() != Design.DUET) {
      return unpaired(runs, studyId);
    }
    Function<DuetSchedule.Round, List<StudyRuns.Measurement>> round = byRound(runs, studyId);
    List<StudyRuns.Measurement> all = new ArrayList<>();
    schedule().order().forEach(r -> all.addAll(round.apply(r)));
    return all;
  }

  /** study.json's fields before the design (what is compared). */
  default void head(ObjectNode root) {}

  /** study.json's fields after the design (the workload). */
  default void workload(ObjectNode root) {}

  /** Latency above this counts as an error in the a/a control's comparison (null: none). */
  default Duration threshold() {
    return THRESHOLD;
  }

  /** The a/a control in words, for the log: {@code side b with side a over its 4 rounds (both …)}. */
  String aaInWords();

  /** How a look decides, for a study run until decided. */
  RoundByRound.Decide decide(String studyId);

  /** The study's reports, from its runs in the warehouse. */
  R report(Study.Finished finished);

  /**
   * The check every plan makes of its rounds: run until decided is a duet whose looks' last round is
   * {@code rounds}; a duet's schedule takes its a/a rounds.
   *
   * @param study the study in the message ({@code study}, {@code quickstart})
   */
  static void checkRounds(String study, Design design, int rounds, int aaRounds, long seed, SequentialLooks looks) {
    if (looks != null && (design != Design.DUET || looks.maxRounds() != rounds)) {
      throw new IllegalArgumentException("a " + study + " run until decided is a duet of at most its looks' last round");
    }
    if (design == Design.DUET) {
      new DuetSchedule(rounds, aaRounds, seed, looks == null ? 0 : looks.firstLook()); // checks the a/a rounds
    }
  }

  /** The plan {@code make} builds from a command's options; what it refuses is bad input (exit 2). */
  static <P> P fromOptions(java.util.function.Supplier<P> make) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) {
      throw new dev.benchlake.core.cli.BadInputException(e.getMessage(), e);
    }
  }
}
