package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link UntilDecided.Study} of every study that runs in this process (the quickstart, {@code
 * study ab}, {@code study versions}): each round's measurements run by {@link StudyRuns}, the study file rewritten after
 * each with every run so far (a crash keeps what ran), and a look that decides: from the runs'
 * own files where the study offers that (a duet of two sides, {@link RunFileLook}), the runs then
 * ingested into the study's warehouse once it stops; otherwise (a version study's trend) by
 * ingesting the runs done since the last look, the warehouse opened at the first look.
 */
public final class RoundByRound implements UntilDecided.Study {
  /** Ingests runs into the warehouse. */
  public interface Ingest {
    void into(Warehouse warehouse, List<StudyRuns.Done> runs) throws IOException;
  }

  /**
   * Decides every step over every comparison round in the warehouse at a look's level: compares the
   * sides ({@link UntilDecided.Look#of}), or a version study's trend ({@link UntilDecided.Look#ofTrend}).
   */
  public interface Decide {
    UntilDecided.Look at(Warehouse warehouse, StatisticsSettings settings);

    /** Why a look at {@code at} can decide no open step, from the runs so far ({@link UntilDecided.Study#decidesNoneAt}). */
    default Optional<String> decidesNoneAt(List<StudyRuns.Done> soFar, StatisticsSettings at, Set<String> decided)
        throws IOException {
      return Optional.empty();
    }

    /**
     * A look decided from the runs' own files, without the warehouse; empty: the look ingests the new
     * runs and decides in the warehouse ({@link #at}).
     */
    default Optional<UntilDecided.Look> fromRunFiles(List<StudyRuns.Done> soFar, StatisticsSettings at)
        throws IOException {
      return Optional.empty();
    }

    /**
     * Where the report's calls differ from those of the last look taken from the run files, one
     * phrase per step; empty when they agree or no look was.
     */
    default List<String> disagreements(ComparisonReport report) {
      return List.of();
    }

    /**
     * A look that compares side b with side a: skipped where no open step can be decided yet
     * ({@link LookPreCheck}), and otherwise decided from the run files ({@link RunFileLook}), the
     * runs ingested once the study stops; {@code compare} is the comparison the report will make.
     */
    static Decide byComparing(BiFunction<Warehouse, StatisticsSettings, ComparisonReport> compare) {
      LookPreCheck preCheck = new LookPreCheck();
      RunFileLook fromFiles = new RunFileLook(preCheck);
      return new Decide() {
        @Override
        public UntilDecided.Look at(Warehouse warehouse, StatisticsSettings settings) {
          return UntilDecided.Look.of(compare.apply(warehouse, settings));
        }

        @Override
        public Optional<String> decidesNoneAt(List<StudyRuns.Done> soFar, StatisticsSettings at,
            Set<String> decided) throws IOException {
          return preCheck.undecidable(soFar, at, decided);
        }

        @Override
        public Optional<UntilDecided.Look> fromRunFiles(List<StudyRuns.Done> soFar, StatisticsSettings at)
            throws IOException {
          return Optional.of(fromFiles.at(soFar, at));
        }

        @Override
        public List<String> disagreements(ComparisonReport report) {
          return fromFiles.disagreements(report);
        }
      };
    }
  }

  /** Writes the study file once the study stopped: every run, the stop, and the round each step was decided after. */
  @FunctionalInterface
  public interface RecordStop {
    void accept(List<StudyRuns.Done> done, SequentialStop stop, java.util.Map<String, Integer> decidedAt);
  }

  /**
   * What a study's runs came to: every run in the order they ran, the warehouse they are in, the
   * settings its report is decided at (a look's, run until decided), and the look it stopped at
   * (null: a fixed number of rounds).
   */
  public record Ran(List<StudyRuns.Done> done, Warehouse warehouse, StatisticsSettings settings,
      SequentialStop stop, CutShort cutShort) {}

  /**
   * What a study cut short has to report: the runs of its complete rounds (those of a round it was
   * in the middle of are kept in its folder and study.json, but left out of its reports, which
   * compare whole rounds), and why it stopped.
   */
  private record Stopped(List<StudyRuns.Done> complete, CutShort cutShort) {}

  /**
   * A failure of a run (a side's process died, a run failed) while the study runs: the study is cut
   * short, and reports the rounds it completed. Refused input (exit 2) is not one: it is the
   * user's to fix, before anything is reported; nor is a signal's stop, which reports nothing.
   */
  private static Stopped stopped(StudyRuns runner, List<StudyRuns.Done> soFar, RuntimeException failure) {
    if (failure instanceof BadInputException) {
      throw failure;
    }
    if (runner.interrupted()) {
      // The side's failure is the signal's doing: say what happened, not what it did to a side.
      throw new CutShortException(runner.stopped("interrupted (Ctrl-C or SIGTERM)"), "Nothing is reported.");
    }
    java.util.Set<Integer> complete = runner.completeRounds();
    return new Stopped(soFar.stream().filter(d -> complete.contains(StudyRuns.roundOf(d))).toList(),
        runner.stopped(failure.getMessage()));
  }

  private final StudyRuns runner;
  private final Function<DuetSchedule.Round, List<StudyRuns.Measurement>> measurementsOf;
  private final Consumer<List<StudyRuns.Done>> recordRuns;
  private final Supplier<Warehouse> openWarehouse;
  private final Ingest ingest;
  private final Decide decide;
  private final List<StudyRuns.Done> soFar = new ArrayList<>();
  /** How many of {@link #soFar} a look has ingested. */
  private int ingested;
  private Warehouse warehouse;

  /**
   * @param recordRuns writes the study file with every run so far
   * @param openWarehouse opens the study's warehouse (a Spark session: only when a look needs it)
   */
  public RoundByRound(StudyRuns runner, Function<DuetSchedule.Round, List<StudyRuns.Measurement>> measurementsOf,
      Consumer<List<StudyRuns.Done>> recordRuns, Supplier<Warehouse> openWarehouse, Ingest ingest, Decide decide) {
    this.runner = runner;
    this.measurementsOf = measurementsOf;
    this.recordRuns = recordRuns;
    this.openWarehouse = openWarehouse;
    this.ingest = ingest;
    this.decide = decide;
  }

  /**
   * A study of a fixed number of rounds: every measurement of {@code plan} run ({@code recordRuns}
   * after each), the side processes ended, then the warehouse opened (Spark would have competed with
   * the load) and every run ingested.
   */
  public static Ran fixedRounds(StudyRuns runner, List<StudyRuns.Measurement> plan,
      Consumer<List<StudyRuns.Done>> recordRuns, Supplier<Warehouse> openWarehouse, Ingest ingest,
      StatisticsSettings settings) throws IOException, InterruptedException {
    runner.expect((int) plan.stream().map(StudyRuns::roundOf).distinct().count(), false);
    List<StudyRuns.Done> soFar = new ArrayList<>();
    List<StudyRuns.Done> all;
    CutShort cut = null;
    try {
      all = runner.run(plan, d -> {
        soFar.clear();
        soFar.addAll(d);
        recordRuns.accept(d);
      });
    } catch (RuntimeException e) {
      Stopped stopped = stopped(runner, soFar, e);
      all = stopped.complete();
      cut = stopped.cutShort();
      if (all.isEmpty()) {
        throw new CutShortException(cut, "No round completed: nothing to report.");
      }
    }
    runner.close();
    Warehouse warehouse = openWarehouse.get();
    ingest.into(warehouse, all);
    return new Ran(all, warehouse, settings, null, cut);
  }

  /**
   * Runs {@code schedule}'s rounds until a look decides every step or the time to {@code
   * deadlineNs} ({@link System#nanoTime}; {@link Long#MAX_VALUE}: none) is spent ({@link
   * UntilDecided#run}), then records every run with the stop ({@code recordStop}: the study file).
   */
  public Ran untilDecided(DuetSchedule schedule, SequentialLooks looks, long deadlineNs, Progress progress,
      RecordStop recordStop) throws IOException, InterruptedException {
    runner.expect(schedule.order().size(), true);
    UntilDecided.Outcome outcome;
    try {
      outcome = UntilDecided.run(schedule, looks, this, progress, deadlineNs);
    } catch (RuntimeException e) {
      // soFar holds whole rounds only: a round's runs are added once all of them are done.
      Stopped stopped = stopped(runner, soFar, e);
      if (stopped.complete().isEmpty()) {
        throw new CutShortException(stopped.cutShort(), "No round completed: nothing to report.");
      }
      runner.close();
      ingest.into(warehouse(), soFar.subList(ingested, soFar.size()));
      // No look decided it: its report is decided at a look's level before the last (the interim α),
      // as strict as any look the study could have stopped at.
      return new Ran(List.copyOf(soFar), warehouse, looks.settingsAt(looks.firstLook()), null, stopped.cutShort());
    }
    // What no look ingested: the control's rounds run after the stopping look, and every run of a
    // study whose looks read the run files.
    if (ingested < soFar.size()) {
      ingest.into(warehouse(), soFar.subList(ingested, soFar.size()));
      ingested = soFar.size();
    }
    recordStop.accept(outcome.done(), outcome.stop(), outcome.decidedAt());
    return new Ran(outcome.done(), warehouse(), outcome.settings(), outcome.stop(), null);
  }

  @Override
  public List<StudyRuns.Measurement> measurementsOf(DuetSchedule.Round round) {
    return measurementsOf.apply(round);
  }

  @Override
  public List<StudyRuns.Done> run(List<StudyRuns.Measurement> measurements) throws IOException, InterruptedException {
    List<StudyRuns.Done> these = runner.run(measurements, d -> {
      List<StudyRuns.Done> all = new ArrayList<>(soFar);
      all.addAll(d);
      recordRuns.accept(all);
    });
    soFar.addAll(these);
    return these;
  }

  @Override
  public Optional<String> decidesNoneAt(StatisticsSettings at, Set<String> decided) throws IOException {
    return decide.decidesNoneAt(List.copyOf(soFar), at, decided);
  }

  @Override
  public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) throws IOException {
    Optional<UntilDecided.Look> fromFiles = decide.fromRunFiles(List.copyOf(soFar), at);
    if (fromFiles.isPresent()) {
      return fromFiles.get(); // the runs wait for the ingest at the stop
    }
    ingest.into(warehouse(), newRuns);
    ingested = soFar.size();
    return decide.at(warehouse, at);
  }

  /** The study's warehouse, opened at the first look that ingests (or now, when none has). */
  public Warehouse warehouse() {
    if (warehouse == null) {
      warehouse = openWarehouse.get();
    }
    return warehouse;
  }
}
