package dev.benchlake.app.study;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.warehouse.Warehouse;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The {@link UntilDecided.Study} of every study that runs in this process (the quickstart, {@code
 * study ab}, {@code study versions}): each round's measurements run by {@link StudyRuns}, the study file rewritten after
 * each with every run so far (a crash keeps what ran), and a look that ingests the runs done since
 * the last look into the study's warehouse, opened at the first look, and decides (compares the
 * sides, or a version study's trend).
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

    /** Why a look at {@code at} cannot stop the study, from its runs so far ({@link UntilDecided.Study#cannotStopAt}). */
    default Optional<String> cannotStopAt(List<StudyRuns.Done> soFar, StatisticsSettings at)
        throws IOException {
      return Optional.empty();
    }

    /**
     * A look that compares side b with side a, skipped where a step cannot be decided yet
     * ({@link LookPreCheck}).
     */
    static Decide byComparing(BiFunction<Warehouse, StatisticsSettings, ComparisonReport> compare) {
      LookPreCheck preCheck = new LookPreCheck();
      return new Decide() {
        @Override
        public UntilDecided.Look at(Warehouse warehouse, StatisticsSettings settings) {
          return UntilDecided.Look.of(compare.apply(warehouse, settings));
        }

        @Override
        public Optional<String> cannotStopAt(List<StudyRuns.Done> soFar, StatisticsSettings at)
            throws IOException {
          return preCheck.undecidable(soFar, at);
        }
      };
    }
  }

  /**
   * What a study's runs came to: every run in the order they ran, the warehouse they are in, the
   * settings its report is decided at (a look's, run until decided), and the look it stopped at
   * (null: a fixed number of rounds).
   */
  public record Ran(List<StudyRuns.Done> done, Warehouse warehouse, StatisticsSettings settings,
      SequentialStop stop) {}

  private final StudyRuns runner;
  private final Function<DuetSchedule.Round, List<StudyRuns.Measurement>> measurementsOf;
  private final Consumer<List<StudyRuns.Done>> recordRuns;
  private final Supplier<Warehouse> openWarehouse;
  private final Ingest ingest;
  private final Decide decide;
  private final List<StudyRuns.Done> soFar = new ArrayList<>();
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
    List<StudyRuns.Done> all = runner.run(plan, recordRuns);
    runner.close();
    Warehouse warehouse = openWarehouse.get();
    ingest.into(warehouse, all);
    return new Ran(all, warehouse, settings, null);
  }

  /**
   * Runs {@code schedule}'s rounds until a look decides every step ({@link UntilDecided#run}),
   * then records every run with the stop ({@code recordStop}: the study file).
   */
  public Ran untilDecided(DuetSchedule schedule, SequentialLooks looks, PrintWriter log,
      BiConsumer<List<StudyRuns.Done>, SequentialStop> recordStop) throws IOException, InterruptedException {
    UntilDecided.Outcome outcome = UntilDecided.run(schedule, looks, this, log);
    recordStop.accept(outcome.done(), outcome.stop());
    return new Ran(outcome.done(), warehouse(), outcome.settings(), outcome.stop());
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
  public Optional<String> cannotStopAt(StatisticsSettings at) throws IOException {
    return decide.cannotStopAt(List.copyOf(soFar), at);
  }

  @Override
  public UntilDecided.Look look(List<StudyRuns.Done> newRuns, StatisticsSettings at) throws IOException {
    ingest.into(warehouse(), newRuns);
    return decide.at(warehouse, at);
  }

  /** The study's warehouse, opened at the first look (or now, when no look has been). */
  public Warehouse warehouse() {
    if (warehouse == null) {
      warehouse = openWarehouse.get();
    }
    return warehouse;
  }
}
