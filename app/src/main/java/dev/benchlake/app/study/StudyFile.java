package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.SequentialStop;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.app.study.duet.CpuSwap;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetPair;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.app.study.duet.InterruptShares;
import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A study's study.json, which says whether the study is whole: {@code "complete": false} from its
 * first write, before the first run, until the study has finished (its runs, its ingest, its
 * reports), then {@code true}; a study that stopped early (a side died, a run failed, it was
 * interrupted) also says how far it got and why ({@code cut_short}, {@link CutShort}). A study
 * killed outright keeps {@code false}: a folder never looks finished when it is not. Every write
 * is whole or not at all ({@link AtomicFiles}), and may come from a shutdown hook while the study
 * writes too: the last content is rewritten with the new state, never a half of each.
 */
public final class StudyFile {
  /** The file's name in the study's folder. */
  public static final String NAME = "study.json";

  private final Path file;
  private ObjectNode content = Json.mapper().createObjectNode();
  private boolean complete;
  private CutShort cutShort;

  /** @param dir the study's folder */
  public StudyFile(Path dir) {
    this.file = dir.resolve(NAME);
  }

  public Path path() {
    return file;
  }

  /** Writes {@code root} (the study's plan, design and runs so far) with the study's state. */
  public synchronized void write(ObjectNode root) {
    content = root.deepCopy();
    flush();
  }

  /**
   * The one writer of study.json's content: what {@code plan} compares ({@link StudyPlan#head}), its
   * design, its looks and where it stopped, its workload ({@link StudyPlan#workload}), and every run
   * so far in the order it ran. Rewritten after each measurement: a crash keeps what ran.
   *
   * @param studyId null for a study whose warehouse holds it alone
   */
  public void record(StudyPlan<?> plan, String studyId, List<StudyRuns.Done> done, SequentialStop stop) {
    record(plan, studyId, done, stop, java.util.Map.of());
  }

  /** The same, with each step decided before the last round and the round of the look that decided it. */
  public void record(StudyPlan<?> plan, String studyId, List<StudyRuns.Done> done, SequentialStop stop,
      java.util.Map<String, Integer> decidedAt) {
    ObjectNode root = Json.mapper().createObjectNode();
    if (studyId != null) {
      root.put("study_id", studyId);
    }
    plan.head(root);
    design(root, plan.design(), plan.rounds(), plan.design() == Design.DUET ? plan.schedule() : null, plan.cpus());
    untilDecided(root, plan.looks(), stop, decidedAt);
    plan.workload(root);
    order(root, file.getParent(), done);
    write(root);
  }

  /**
   * study.json's record of what ran, in order: each run's folder (relative to the study's),
   * id, major, the study's labels, the CPU sets its processes had, and the steps it measured.
   */
  static void order(ObjectNode root, Path studyDir, List<StudyRuns.Done> done) {
    ArrayNode order = root.putArray("order");
    for (StudyRuns.Done d : done) {
      ObjectNode r = order.addObject();
      var labels = d.manifest().labels();
      if (labels.containsKey(StudyLabels.ROUND)) {
        r.put("round", Integer.parseInt(labels.get(StudyLabels.ROUND)));
      }
      for (String key : List.of("position", StudyLabels.SIDE, StudyLabels.CONTROL, StudyLabels.PAIR, StudyLabels.CPUS)) {
        if (labels.containsKey(key)) {
          if (key.equals("position")) {
            r.put(key, Integer.parseInt(labels.get(key)));
          } else {
            r.put(key, labels.get(key));
          }
        }
      }
      if (d.manifest().target().major() != null) {
        r.put("db_major", d.manifest().target().major());
      }
      if (d.manifest().cpuAffinity() != null) {
        ObjectNode a = r.putObject("cpu_affinity");
        a.put("client", d.manifest().cpuAffinity().client());
        a.put("server", d.manifest().cpuAffinity().server());
      }
      r.put("run_dir", studyDir.relativize(d.dir().toAbsolutePath().normalize()).toString());
      r.put("run_id", d.manifest().runId());
      if (d.manifest().workload() != null && d.manifest().workload().steps() != null) {
        // What the run measured: a study run until decided leaves out the steps it decided (issue 47).
        ArrayNode steps = r.putArray("steps");
        d.manifest().workload().steps().forEach(steps::add);
      }
    }
  }

  /**
   * study.json's design: how the runs were measured, and for a duet its CPU sets and its a/a
   * control (the runs labelled {@code control=aa}, which the analysis finds by that label).
   */
  static void design(ObjectNode root, Design design, int rounds, DuetSchedule duet, DuetCpus cpus) {
    root.put("design", design.id());
    root.put("rounds", rounds);
    ObjectNode controls = root.putObject("controls");
    if (design != Design.DUET) {
      return;
    }
    root.put("aa_rounds", duet.aaRounds());
    ObjectNode sets = root.putObject("cpu_sets");
    sets.put("one", cpus.one().toString());
    sets.put("two", cpus.two().toString());
    sets.put("rule", "within each kind of round (comparison or a/a), in blocks of two rounds, side a runs on set one in "
        + "one and on set two in the other, which first drawn from the study's seed; side b on the other set");
    sets.put("seed", duet.seed());
    // Side a's set in every round, in the order they run: the draw, recorded, not only its seed.
    ArrayNode sideA = sets.putArray("side_a");
    duet.order().forEach(r -> sideA.add(r.aOnSetOne() ? "one" : "two"));
    sets.put("swap", cpus.swap().mode().id());
    sets.put("processes", "one loadgen JVM per set for the whole study, warmed up by " + DuetPair.WARM_UP_PASSES
        + " passes of each kind of pair before its first measured one, the kinds in turn pass by pass; in each pair"
        + " the side on a set runs on that set's JVM; every run starts a server of its own");
    if (cpus.swap().mode() == CpuSwap.IN_WINDOW) {
      sets.put("swap_rule", "inside every step the sides also swap sets every " + cpus.swap().periodMs() + " ms, "
          + "counted from the start of the step's measured window (in its first period each side is on its round's "
          + "set): a window of an even number of periods has each side half of it on each set");
      sets.put("swap_mover", cpus.swap().mover().id());
    }
    InterruptShares.read(cpus).ifPresent(shares -> {
      ObjectNode irq = sets.putObject("device_interrupts");
      irq.put("one", shares.one());
      irq.put("two", shares.two());
      irq.put("what", "device interrupts (disk, network) each set's CPUs handled since boot, from /proc/interrupts; "
          + "a set that handles most of them slows its side's I/O-heavy steps");
    });
    ObjectNode aa = controls.putObject("aa");
    aa.put("rounds", duet.aaRounds());
    aa.put("placement", "one round at a place drawn from the study's seed in each of " + duet.aaRounds()
        + " equal stretches of the study; a study stopped early by a look runs the rest before its report");
    aa.put("selector", StudyLabels.CONTROL + "=" + StudyLabels.AA);
    aa.put("what", "both sides run the baseline; their ratio must come out 1 (equivalent within the margin)");
  }

  /**
   * study.json's {@code until_decided}, for a study run until decided: its looks, and once it
   * stopped, where and why, and the round after which each step decided early was decided (it ran
   * in no later comparison round); nothing for a fixed number of rounds.
   */
  static void untilDecided(ObjectNode root, dev.benchlake.analysis.stats.SequentialLooks looks,
      dev.benchlake.analysis.compare.SequentialStop stop, java.util.Map<String, Integer> decidedAt) {
    if (looks == null) {
      return;
    }
    ObjectNode node = root.putObject("until_decided");
    node.put("max_rounds", looks.maxRounds());
    node.put("first_look", looks.firstLook());
    node.put("rule", looks.rule());
    node.put("plan", looks.inWords());
    if (stop != null) {
      node.put("stopped_after_round", stop.stoppedAfterRound());
      node.put("every_step_decided", stop.everyStepDecided());
      if (stop.budgetAlpha() != null) {
        // The budget made this look the last before the plan's: it spent what the plan had left.
        node.put("budget_last_look_alpha", stop.budgetAlpha());
      }
      // A step decided at a look ran in no later comparison round (issue 47): its runs stop there.
      ObjectNode decided = node.putObject("decided_after_round");
      decidedAt.forEach(decided::put);
    }
  }

  /** Records that the study stopped early, and why. */
  public synchronized void cutShort(CutShort cut) {
    cutShort = cut;
    flush();
  }

  /** Records that the study finished: {@code complete: true}. */
  public synchronized void complete() {
    complete = true;
    flush();
  }

  /** What it last recorded of a study cut short; null while none. */
  public synchronized CutShort cutShortSoFar() {
    return cutShort;
  }

  /**
   * A study command's exit code: 0 for a study that finished; 1 for one cut short, whose reason
   * goes to stderr in one line ({@code benchlake study ab: cut short after round …}).
   */
  public static int exitCode(CutShort cut, String command, java.io.PrintWriter err) {
    if (cut == null) {
      return dev.benchlake.core.cli.ExitCode.OK;
    }
    String sentence = cut.sentence();
    err.println("benchlake " + command + ": " + Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1));
    err.flush();
    return dev.benchlake.core.cli.ExitCode.FAILURE;
  }

  private void flush() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("complete", complete);
    if (cutShort != null) {
      cutShort.json(root.putObject("cut_short"));
    }
    content.fields().forEachRemaining(f -> {
      if (!f.getKey().equals("complete") && !f.getKey().equals("cut_short")) {
        root.set(f.getKey(), f.getValue());
      }
    });
    try {
      AtomicFiles.writeString(file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }
}
