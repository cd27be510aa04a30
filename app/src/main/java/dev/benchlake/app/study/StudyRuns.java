package dev.benchlake.app.study;

import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.CgroupCpusets;
import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSessions;
import dev.benchlake.app.study.duet.SideCommand;
import dev.benchlake.app.study.duet.SideRun;
import dev.benchlake.app.study.duet.SwapRule;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.RunResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * A study's measurements, run one after another: a run alone in this JVM (each on a fresh
 * embedded server loadgen starts and stops), or a duet's pair of runs at the same moment, each
 * side a process of its own on its own CPU set ({@link DuetPair}), kept from pair to pair where it
 * can be ({@link DuetSessions}): close the runner when the study ends.
 */
public final class StudyRuns implements AutoCloseable {
  /** One measurement of a study. */
  public sealed interface Measurement permits Alone, Pair {
    String title();
  }

  /** A run alone. */
  public record Alone(String title, LoadgenConfig config) implements Measurement {}

  /** A duet's pair: both runs at once, their CPU sets swapped inside every window or not. */
  public record Pair(String title, SideRun a, SideRun b, SwapRule swap) implements Measurement {}

  /** A finished run. */
  public record Done(Path dir, RunManifest manifest) {}

  private final Path out;
  private final PrintWriter log;
  private final Progress progress;
  private final DuetSessions sessions;
  private final StudyFile studyFile;
  /** Stops what the study started when the JVM is asked to stop (Ctrl-C, SIGTERM) before the study finished. */
  private final Thread onInterrupt;
  /** Measurements not yet done, by round: a round is complete when it has none left. */
  private final Map<Integer, Integer> pending = new HashMap<>();
  private final Set<Integer> completeRounds = ConcurrentHashMap.newKeySet();
  /** A signal is stopping the study: nothing more is to run or be reported. */
  private volatile boolean interrupted;
  private volatile int roundsPlanned;
  private volatile boolean atMost;

  /**
   * Also removes what earlier studies left (cgroup groups of duets whose coordinator is gone) and
   * registers the study's shutdown hook: until {@link #ended}, a Ctrl-C or SIGTERM ends the
   * sides (their runs stop at once, their servers stop), removes their groups, and marks the study
   * file cut short.
   *
   * @param out the study's folder: run folders are under it, a duet's logs in {@code logs/}
   * @param progress what the study says as it runs: a line per round of a fixed number of rounds
   *     (run until decided, {@link UntilDecided} says them), the rest detail for {@code --verbose}
   * @param studyFile the study's study.json (which the study writes first, before any run, with
   *     {@code complete: false}): where a cut short is recorded
   */
  public StudyRuns(Path out, Progress progress, StudyFile studyFile) {
    this.out = out;
    this.log = progress.log();
    this.progress = progress;
    this.sessions = new DuetSessions(out.resolve("logs"));
    this.studyFile = studyFile;
    CgroupCpusets.locate().ifPresent(c -> c.stale().forEach(StudyRuns::removeStaleGroup));
    this.onInterrupt = new Thread(this::interrupt, "study-interrupted");
    Runtime.getRuntime().addShutdownHook(onInterrupt);
  }

  /** {@code --profile}: the rate every measured run profiles its server at, or null. */
  private Integer profileHz;

  /** This runner profiling every measured run's server at {@code hz} samples a second (null: none). */
  public StudyRuns profile(Integer hz) {
    profileHz = hz;
    return this;
  }

  /**
   * {@code m} with {@code --profile} at {@code hz} on each of its runs (null: as it is). A pair's
   * sides both get it, so that perf's cost is the same on both; their warm-up passes drop it
   * ({@link LoadgenConfig#forWarmUp}).
   */
  static Measurement profiled(Measurement m, Integer hz) {
    if (hz == null) {
      return m;
    }
    if (m instanceof Alone alone) {
      return new Alone(alone.title(), alone.config().withProfile(hz));
    }
    Pair pair = (Pair) m;
    return new Pair(pair.title(), profiled(pair.a(), hz), profiled(pair.b(), hz), pair.swap());
  }

  private static SideRun profiled(SideRun side, Integer hz) {
    return new SideRun(side.name(), side.config().withProfile(hz), side.cpus());
  }

  /** How many rounds the study plans ({@code atMost}: run until decided, it may stop sooner), for {@link #stopped}. */
  public void expect(int rounds, boolean upTo) {
    this.roundsPlanned = rounds;
    this.atMost = upTo;
  }

  /** The rounds whose every measurement completed. */
  public Set<Integer> completeRounds() {
    return Set.copyOf(completeRounds);
  }

  /** The study stopped here for {@code reason}: how far it got, recorded in its study file. */
  public CutShort stopped(String reason) {
    CutShort cut = new CutShort(completeRounds.size(), roundsPlanned, atMost, reason);
    studyFile.cutShort(cut);
    return cut;
  }

  /** Whether a run belongs to a duet's a/a control (label {@code control=aa}). */
  public static boolean isAaControl(Done done) {
    return StudyLabels.AA.equals(done.manifest().labels().get(StudyLabels.CONTROL));
  }

  /** The round of a run (its label), or 0 for a run without one. */
  static int roundOf(Done done) {
    String round = done.manifest().labels().get(StudyLabels.ROUND);
    return round == null ? 0 : Integer.parseInt(round);
  }

  static int roundOf(Measurement m) {
    String round = configOf(m).labels().get(StudyLabels.ROUND);
    return round == null ? 0 : Integer.parseInt(round);
  }

  /**
   * The study has ended, finished or failed (its study file says which): a signal, or the JVM's
   * exit, now has nothing of the study to stop or to mark.
   */
  public void ended() {
    try {
      Runtime.getRuntime().removeShutdownHook(onInterrupt);
    } catch (IllegalStateException e) {
      // the JVM is stopping already
    }
  }

  /** Whether a signal is stopping the study (its shutdown hook runs). */
  public boolean interrupted() {
    return interrupted;
  }

  private void interrupt() {
    interrupted = true;
    CutShort before = studyFile.cutShortSoFar();
    stopped(before != null ? before.reason() + "; then interrupted (Ctrl-C or SIGTERM)"
        : "interrupted (Ctrl-C or SIGTERM)");
    try {
      sessions.close();
    } catch (IOException | InterruptedException | RuntimeException e) {
      log.println("study: interrupted, and ending the sides failed: " + e.getMessage());
      log.flush();
    }
  }

  private static void removeStaleGroup(Path group) {
    try {
      CgroupCpusets.remove(group);
    } catch (IOException e) {
      // left for the next study, or study clean
    }
  }

  /**
   * Runs every measurement in order.
   *
   * @param afterEach called with every run done so far after each measurement (e.g. to rewrite
   *     study.json, so that a crash keeps what ran)
   * @throws IllegalStateException when a run did not complete
   */
  public List<Done> run(List<Measurement> measurements, Consumer<List<Done>> afterEach)
      throws IOException, InterruptedException {
    List<Measurement> plan = measurements.stream().map(m -> profiled(m, profileHz)).toList();
    synchronized (pending) {
      plan.forEach(m -> pending.merge(roundOf(m), 1, Integer::sum));
    }
    warmUpInTurn(plan);
    List<Done> done = new ArrayList<>();
    FixedRounds rounds = atMost ? null : new FixedRounds(progress, plan);
    for (int i = 0; i < plan.size(); i++) {
      Measurement m = plan.get(i);
      if (rounds != null) {
        rounds.starting(m);
      }
      long startNs = System.nanoTime();
      String prefix = String.format(Locale.ROOT, "[%d/%d] %s", i + 1, plan.size(), m.title());
      List<Done> these = new ArrayList<>();
      if (m instanceof Alone alone) {
        status(prefix + ": starting a fresh server");
        RunResult result = Loadgen.run(alone.config(), ChainStages.stepLines(progress.detail()));
        if (result.status() != RunStatus.COMPLETE) {
          throw new IllegalStateException("run " + result.runDir() + " " + result.status().json() + ": "
              + result.manifest().error());
        }
        these.add(new Done(result.runDir(), result.manifest()));
      } else {
        Pair pair = (Pair) m;
        status(prefix + ": both sides at once, a on CPUs " + pair.a().cpus() + ", b on CPUs " + pair.b().cpus());
        DuetPair.Outcome outcome = new DuetPair(out.resolve("logs"), progress.detail(), pair.swap(), sessions)
            .run(pair.a(), pair.b());
        these.add(new Done(pair.a().config().outDir(), outcome.a()));
        these.add(new Done(pair.b().config().outDir(), outcome.b()));
      }
      long tasks = these.stream().mapToLong(d -> d.manifest().summary().attempts()).sum();
      long errors = these.stream().mapToLong(d -> d.manifest().summary().errors()).sum();
      status(String.format(Locale.ROOT, "%s: complete in %.0f s, %d steps, %d tasks, %d errors", prefix,
          (System.nanoTime() - startNs) / 1e9, these.get(0).manifest().workload().steps().size(), tasks, errors));
      done.addAll(these);
      synchronized (pending) {
        int round = roundOf(m);
        if (pending.merge(round, -1, Integer::sum) == 0) {
          completeRounds.add(round);
        }
      }
      afterEach.accept(List.copyOf(done));
    }
    return done;
  }

  /**
   * Warms the side processes up for the kinds of pair in {@code plan} they have not run yet, in
   * turn: pass 1 of every kind, then pass 2 of every kind, and so on. A JVM that alternates kinds
   * recompiles code its JIT had shaped for one kind when the other comes (a call site that saw one
   * kind of task sees two); warmed up one kind after the other, the first rounds were measured while
   * that happened, one side at a time.
   */
  private void warmUpInTurn(List<Measurement> plan) throws IOException, InterruptedException {
    List<Pair> cold = new ArrayList<>();
    for (Measurement m : plan) {
      if (m instanceof Pair pair && sessions.needsWarmUp(pair.a().config().workload())) {
        cold.add(pair);
      }
    }
    if (cold.isEmpty()) {
      return;
    }
    long startNs = progress.warmingUp(DuetPair.WARM_UP_PASSES, cold.size());
    for (int pass = 1; pass <= DuetPair.WARM_UP_PASSES; pass++) {
      for (Pair pair : cold) {
        new DuetPair(out.resolve("logs"), progress.detail(), pair.swap(), sessions).warmUp(pair.a(), pair.b(), pass);
      }
    }
    progress.warmedUp(startNs);
  }

  /**
   * The status line of each round of a study of a fixed number of rounds, said as its first
   * measurement starts: {@code round 3 of 6: about 2 min 10 s left} (the time left at the mean time
   * of a round so far), the a/a control's rounds counted apart ({@link Progress#roundName}).
   */
  static final class FixedRounds {
    private final Progress progress;
    private final Map<Integer, Boolean> aaByRound = new java.util.LinkedHashMap<>();
    private final long comparisonRounds;
    private final long controlRounds;
    private int comparisonSeen;
    private int controlSeen;
    private int current = -1;
    private long firstStartNs;

    FixedRounds(Progress progress, List<Measurement> plan) {
      this.progress = progress;
      plan.forEach(m -> aaByRound.putIfAbsent(roundOf(m), aa(m)));
      controlRounds = aaByRound.values().stream().filter(aa -> aa).count();
      comparisonRounds = aaByRound.size() - controlRounds;
    }

    void starting(Measurement m) {
      int round = roundOf(m);
      if (round == current) {
        return;
      }
      current = round;
      long nowNs = progress.nowNs();
      int started = comparisonSeen + controlSeen;
      if (started == 0) {
        firstStartNs = nowNs;
      }
      double left = started == 0 ? Double.NaN
          : (nowNs - firstStartNs) / 1e9 / started * (aaByRound.size() - started);
      boolean aa = aa(m);
      int ofKind = aa ? ++controlSeen : ++comparisonSeen;
      progress.say(String.format(Locale.ROOT, "study: %s of %d: %s", Progress.roundName(aa, ofKind),
          aa ? controlRounds : comparisonRounds, Progress.timeLeft(left)));
    }
  }

  private static boolean aa(Measurement m) {
    return StudyLabels.AA.equals(configOf(m).labels().get(StudyLabels.CONTROL));
  }

  /** The run's configuration, side a's of a pair (both sides carry the round's labels). */
  static LoadgenConfig configOf(Measurement m) {
    return m instanceof Alone alone ? alone.config() : ((Pair) m).a().config();
  }

  /** A duet needs taskset (util-linux) on the PATH ({@link SideCommand#requireTaskset}). */
  public static void requireTaskset() {
    SideCommand.requireTaskset();
  }

  /** Ends a duet's sides kept from pair to pair ({@link DuetSessions}), stopping their servers. */
  @Override
  public void close() throws IOException, InterruptedException {
    sessions.close();
  }

  /** A measurement's start and end: detail ({@code --verbose}), as the round's status line says where the study is. */
  private void status(String message) {
    progress.detail("study: " + message);
  }
}
