package dev.benchlake.app.study;

import dev.benchlake.analysis.cli.FailOn;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.app.study.duet.SwapRule;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.loadgen.LoadgenConfig;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code benchlake study ab}: is side b faster than side a? Two majors, two settings, or two servers. */
@Command(name = "ab", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class, sortOptions = false,
    defaultValueProvider = AbCommand.Defaults.class,
    description = {
      "Two sides on the same sysbench steps, measured together: two PostgreSQL majors (--a-pg 14 --b-pg 17), "
          + "two sets of settings of one major (--a-setting / --b-setting), or two servers (--a-jdbc-url / "
          + "--b-jdbc-url). The runs are ingested into the warehouse and side b is compared with side a "
          + "(compare/report.html).",
      "--design duet (the default) runs both sides at the same moment on this machine, each side's client and "
          + "embedded server pinned to a CPU set of its own (by default half of the CPUs each), the sets "
          + "swapped every round and every " + SwapRule.DEFAULT_PERIOD + " inside each step (by cgroup cpuset groups "
          + "where they can be made, else by each thread's affinity: --cpu-swap, --swap-period), every step started on both sides together and counted over the window they share: "
          + "the machine's second-to-second swings, which make runs taken one after another differ by "
          + "15-25 %% on a VM, hit both sides alike. Every duet carries an a/a control (--aa-rounds, both sides "
          + "side a; its comparison in aa/ must come out 1). A server by URL cannot be pinned: only its client is.",
      "--design interleaved runs the sides one after the other, in an order shuffled every round; sequential "
          + "runs all of side a, then all of side b."
    },
    footer = {"", "Examples:",
      "  benchlake study ab --a-pg 14 --b-pg 17 --rounds 5 --out ab-14-17",
      "  benchlake study ab --a-pg 17 --b-pg 17 --b-setting shared_buffers=128kB --steps point-select --out sb",
      "", "Exit codes: 0 done, 1 a run failed (a study cut short reports its complete rounds, and says so), "
          + "2 bad usage or bad input (nothing written), 3 a --fail-on gate failed."})
public final class AbCommand implements Callable<Integer>, Validated {
  /** The defaults of {@code study ab}'s shared options. */
  static final class Defaults extends StudyDefaults {
    Defaults() {
      super(Map.of("--rounds", "5", "--steps", "point-select,read-only,update-index,insert", "--clients", "auto",
          "--duration", "10s", "--warmup", "2s", "--between-steps", "none", "--tables", "1", "--table-size", "10000"));
    }
  }

  @Option(names = "--a-pg", paramLabel = "MAJOR", defaultValue = "17",
      description = "Side a (the baseline): embedded PostgreSQL major (default: ${DEFAULT-VALUE}).")
  int aMajor;

  @Option(names = "--a-setting", paramLabel = "NAME=VALUE",
      description = "Side a: a setting of its embedded server (repeatable).")
  Map<String, String> aSettings = new LinkedHashMap<>();

  @Option(names = "--a-jdbc-url", paramLabel = "URL", description = "Side a: a server by URL instead (password from "
      + "PGPASSWORD, PGPASSFILE or ~/.pgpass).")
  String aJdbcUrl;

  @Option(names = "--a-user", paramLabel = "USER", description = "User for --a-jdbc-url.")
  String aUser;

  @Option(names = "--b-pg", paramLabel = "MAJOR", defaultValue = "17",
      description = "Side b (the candidate): embedded PostgreSQL major (default: ${DEFAULT-VALUE}).")
  int bMajor;

  @Option(names = "--b-setting", paramLabel = "NAME=VALUE",
      description = "Side b: a setting of its embedded server (repeatable).")
  Map<String, String> bSettings = new LinkedHashMap<>();

  @Option(names = "--b-jdbc-url", paramLabel = "URL", description = "Side b: a server by URL instead.")
  String bJdbcUrl;

  @Option(names = "--b-user", paramLabel = "USER", description = "User for --b-jdbc-url.")
  String bUser;

  @Option(names = "--aa-jdbc-url", paramLabel = "URL", description = "A duet of servers by URL: another database of "
      + "side a's server, for the a/a control's second side (both sides load their tables at once).")
  String aaJdbcUrl;

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "duet", converter = Design.Converter.class,
      description = "duet, interleaved or sequential (default: ${DEFAULT-VALUE}).")
  Design design;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "study-ab",
      description = "A new or empty folder for runs/, compare/, aa/, study.json (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin
  RoundsOption rounds;

  @Mixin
  StudyOptions options;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private AbStudyPlan plan;
  private Study<ComparisonReport> study;

  /**
   * Every option before anything starts or is written: α, margin and correction, the sides, the plan
   * (rounds, the a/a rounds, looks, CPU sets), every kind of run's loadgen options.
   */
  @Override
  public void validate(Preflight before) {
    StatisticsSettings settings = options.settings();
    plan = plan(settings);
    Path outDir = out.toAbsolutePath().normalize();
    study = options.study(plan, outDir, spec.commandLine().getErr(), settings);
    study.validate();
  }

  @Override
  public List<Path> writes() {
    return options.writes(out);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    Path outDir = out.toAbsolutePath().normalize();
    String sides = "side a " + plan.a().describe() + ", side b " + plan.b().describe()
        + (plan.cpus() == null ? "" : ", " + StudyOptions.cpuSets(plan.cpus()));
    return options.run(study, plan, outDir, spec, sides, "study ab", (stdout, outcome) -> {
      Study.printScope(stdout, outcome.report().scope());
      stdout.println();
      Study.printAnswer(stdout, outcome.report());
      stdout.println();
      stdout.println("Comparison:   " + outDir.resolve("compare").resolve(CompareFiles.HTML) + " (b against a; also "
          + CompareFiles.JSON + ", " + CompareFiles.MARKDOWN + ")");
      if (outcome.aaDir() != null) {
        stdout.println("a/a control:  " + outcome.aaDir().resolve(CompareFiles.HTML) + " (must come out 1)");
      }
    }, "Design:       ", FailOn::calls);
  }

  private AbStudyPlan plan(StatisticsSettings settings) {
    if (aJdbcUrl == null && aUser != null || bJdbcUrl == null && bUser != null) {
      throw new BadInputException("--a-user and --b-user go with --a-jdbc-url and --b-jdbc-url");
    }
    var parsed = spec.commandLine().getParseResult();
    if (aJdbcUrl != null && (parsed.hasMatchedOption("--a-pg") || !aSettings.isEmpty())
        || bJdbcUrl != null && (parsed.hasMatchedOption("--b-pg") || !bSettings.isEmpty())) {
      throw new BadInputException("a side is an embedded server (--a-pg, --a-setting) or a server by URL "
          + "(--a-jdbc-url), not both");
    }
    List<String> byUrl = new java.util.ArrayList<>();
    if (aJdbcUrl != null) {
      byUrl.add("--a-jdbc-url");
    }
    if (bJdbcUrl != null) {
      byUrl.add("--b-jdbc-url");
    }
    options.profile.refuseServersByUrl(byUrl);
    Path dir = options.pgDir();
    boolean duet = design == Design.DUET;
    AbStudyPlan.Side a = new AbStudyPlan.Side(aJdbcUrl != null ? new LoadgenConfig.External(aJdbcUrl, aUser)
        : new LoadgenConfig.Embedded(aMajor, options.duet.serverSettings(duet, aSettings), dir));
    AbStudyPlan.Side b = new AbStudyPlan.Side(bJdbcUrl != null ? new LoadgenConfig.External(bJdbcUrl, bUser)
        : new LoadgenConfig.Embedded(bMajor, options.duet.serverSettings(duet, bSettings), dir));
    AbStudyPlan.Side aaSecond = aJdbcUrl == null ? a
        : aaJdbcUrl == null ? null : new AbStudyPlan.Side(new LoadgenConfig.External(aaJdbcUrl, aUser));
    DuetCpus cpus = options.duet.cpus(duet);
    return StudyPlan.fromOptions(() -> {
      SequentialLooks looks = options.untilDecided.looks(design, settings);
      return new AbStudyPlan(a, b, aaSecond, design, rounds.rounds(looks), options.duet.aaRounds(), options.seed(),
          options.sysbench.workload(cpus), cpus, looks);
    });
  }
}
