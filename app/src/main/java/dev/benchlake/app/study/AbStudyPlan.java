package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.app.chain.ChainStages;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.DuetSchedule;
import dev.benchlake.core.CpuList;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.Loadgen;
import dev.benchlake.loadgen.LoadgenConfig;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * {@code study ab}: two sides (two majors, two sets of settings of one major, or two servers by URL)
 * on the same sysbench steps, {@code rounds} times each, measured by {@code design}; a duet adds
 * {@code aaRounds} of its a/a control. In every round both sides load the same data (seed + round).
 * It reports side b compared with side a ({@code compare/}).
 *
 * @param aaSecond the a/a control's side b: the baseline again (for a server by URL: another
 *     database of it, {@code --aa-jdbc-url}, since both sides load their tables at once)
 * @param looks a duet run until decided: its looks ({@code rounds} is then their last round); else null
 */
public record AbStudyPlan(Side a, Side b, Side aaSecond, Design design, int rounds, int aaRounds, long seed,
    Workload.Sysbench workload, DuetCpus cpus, SequentialLooks looks) implements StudyPlan<ComparisonReport> {

  /** The command's name in the runs' {@code source} label. */
  public static final String SOURCE = "study-ab";
  public AbStudyPlan {
    if (rounds < 2) {
      throw new IllegalArgumentException("--rounds must be at least 2 (the run is the unit of replication), not "
          + rounds);
    }
    StudyPlan.checkRounds("study", design, rounds, aaRounds, seed, looks);
  }

  /** A side: where its runs go. */
  public record Side(LoadgenConfig.Target target) {
    /** For the log and study.json: {@code PostgreSQL 14 (shared_buffers=128kB)} or the URL, its secrets redacted. */
    public String describe() {
      if (target instanceof LoadgenConfig.Embedded e) {
        return "PostgreSQL " + e.major() + (e.settings().isEmpty() ? "" : " " + new java.util.TreeMap<>(e.settings()));
      }
      // Printed and written to study.json: a password in the URL never is.
      return dev.benchlake.core.redaction.Redaction.scrub(((LoadgenConfig.External) target).jdbcUrl());
    }
  }

  @Override
  public String idPrefix() {
    return "ab";
  }

  /**
   * The sides, the loadgen options of every kind of run (an embedded side's binaries and --pg-dir
   * among them), a duet's two servers by URL that do not share a database, the output folder
   * ({@link Study#validate} checks a duet's taskset).
   */
  @Override
  public void validate(Path out) {
    StudyFolders.requireNewOrEmpty(out);
    for (Side side : List.of(a, b)) {
      Loadgen.validate(config(side, out.resolve("validate"), "validate", 1, "r1-a", "a", false, null));
    }
    if (design == Design.DUET) {
      if (a.target() instanceof LoadgenConfig.External xa) {
        if (b.target() instanceof LoadgenConfig.External xb && xa.jdbcUrl().equals(xb.jdbcUrl())) {
          throw new BadInputException("--a-jdbc-url and --b-jdbc-url are the same database: a duet's sides load their "
              + "tables at once, so give each side a database of its own");
        }
        if (aaSecond == null) {
          throw new BadInputException("a duet's a/a control runs side a's server on both sides at once: give "
              + "--aa-jdbc-url, another database of side a's server, for its second side");
        }
      }
    }
  }

  @Override
  public void checkSettings(PrintWriter log) {
    StudySettings.check(List.of(a.target(), b.target()), workload.clients(), log);
  }

  @Override
  public List<StudyRuns.Measurement> unpaired(Path runs, String studyId) {
    return RunOrder.of(List.of("a", "b"), rounds, seed, design).stream().<StudyRuns.Measurement>map(run -> {
      Side s = run.side().equals("a") ? a : b;
      return new StudyRuns.Alone("round " + run.round() + ", side " + run.side() + ": " + s.describe(),
          config(s, runs, studyId, run.round(), "r" + run.round() + "-" + run.side(), run.side(), false, null));
    }).toList();
  }

  /** A duet round's pair: the baseline on both sides in an a/a round. */
  @Override
  public Function<DuetSchedule.Round, List<StudyRuns.Measurement>> byRound(Path runs, String studyId) {
    return r -> {
      Side second = r.aa() ? aaSecond : b;
      String name = "r" + r.round() + (r.aa() ? "-aa" : "") + "-";
      return List.of(DuetPairs.pair(DuetPairs.title(r) + ": a " + a.describe() + " | b " + second.describe(), cpus, r,
          (side, set) -> config(side.equals("a") ? a : second, runs, studyId, r.round(), name + side, side, r.aa(),
              set)));
    };
  }

  /** The config of one run (also what validation checks before anything runs). */
  LoadgenConfig config(Side side, Path runs, String studyId, int round, String dirName, String sideName, boolean aa,
      CpuList set) {
    // Both sides of a round load the same data; a new draw each round.
    return workload.run(side.target(), seed + round, runs.resolve(dirName),
        StudyLabels.of(studyId, SOURCE, design, round, sideName, aa, set));
  }

  @Override
  public void head(ObjectNode root) {
    root.put("seed", seed);
    root.put("a", a.describe());
    root.put("b", b.describe());
  }

  @Override
  public void workload(ObjectNode root) {
    workload.json(root);
    root.put("between_steps", workload.betweenSteps().id());
  }

  @Override
  public String aaInWords() {
    return "side b with side a over its " + aaRounds + " rounds (both the baseline)";
  }

  @Override
  public RoundByRound.Decide decide(String studyId) {
    return RoundByRound.Decide.byComparing((w, at) -> ChainStages.compare(w,
        StudyLabels.comparisonSide(studyId, "a"), StudyLabels.comparisonSide(studyId, "b"), THRESHOLD, at));
  }

  @Override
  public ComparisonReport report(Study.Finished finished) {
    finished.status().accept("comparing side b (" + b.describe() + ") with side a (" + a.describe() + ")");
    return finished.compare(StudyLabels.comparisonSide(finished.studyId(), "a"),
        StudyLabels.comparisonSide(finished.studyId(), "b"), THRESHOLD);
  }
}
