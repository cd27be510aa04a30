package dev.benchlake.app.study;

import dev.benchlake.analysis.stats.SequentialLooks;
import dev.benchlake.analysis.stats.StatisticsSettings;
import dev.benchlake.analysis.cli.FailOn;
import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.analysis.trend.TrendFiles;
import dev.benchlake.analysis.trend.TrendMarkdown;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.app.study.duet.DuetCpus;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
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

/** {@code benchlake study versions}: how did performance change across PostgreSQL majors? */
@Command(name = "versions", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    sortOptions = false, defaultValueProvider = VersionsCommand.Defaults.class,
    description = {
      "The PostgreSQL version study (mdcallag's sysbench study of 11 to 16) in one command: every major of --pg "
          + "on a fresh embedded server per run, --rounds rounds in an order shuffled by --seed, the runs "
          + "ingested into the warehouse, then the trend of each step's qps relative to the first major "
          + "(trend.json, trend.md, trend.html). scan is one pass: each client scans every table once, and its qps "
          + "is the rows scanned per second (the 2023 run.sh scanned one table and multiplied by the tables: "
          + "loadgen/README.md). --steps mytools is the 48 steps of mytools today; --steps mytools-2023 the 43 "
          + "all_small.sh ran in 2023, for the published study.",
      "The defaults are a short study: 3 majors x 2 rounds of the whole mytools step set (48 steps) at 1 s "
          + "each, 1 client, on 4 tables of 10000 rows: 6 runs of about 1 minute, 7.5 minutes in all on a busy "
          + "2-core machine; at 10000 rows the steps weigh planning and the plan cache more than the published "
          + "study did (the report's scope says so). The published study ran 8 clients on 4 tables of 20M rows, "
          + "600 s for each read step and 1200 s for each write step, after a 5 s warm-up: --clients 8 --tables 4 "
          + "--table-size 20000000 --read-duration 600s --write-duration 1200s --warmup 5s; that is 9.4 hours a run "
          + "(38 timed read steps and 9 write steps, before loading 80M rows), 5.5 days for 7 majors x 2 rounds.",
      "--design duet measures each other major against the first at the same moment, each on a CPU set of its "
          + "own, with an a/a control (see benchlake study ab --help): each round runs one pair per other major, in an "
          + "order --seed shuffles (study.json's duet_pairs gives every round's). It runs no pairs between neighbours "
          + "(14 and 17 of --pg 11,14,17): their comparison, the trend's 'between consecutive versions', is per round "
          + "17's ratio to its base run over 14's; the published study's sheet compares each major against the first."
    },
    footer = {"", "Examples:",
      "  benchlake study versions --pg 11,12,13,14,15,16,17 --steps mytools-2023 --rounds 3 --out study1",
      "    (21 runs of about 45 s of steps each: about 25 minutes on 2 cores)",
      "  benchlake study versions --pg 14,17 --pg-setting shared_buffers=1GB --design duet --out study2",
      "", "Exit codes: 0 done, 1 a run failed (a study cut short reports its complete rounds, and says so), "
          + "2 bad usage or bad input (e.g. a major without embedded binaries, a setting PostgreSQL refuses), "
          + "3 a --fail-on gate failed."})
public final class VersionsCommand implements Callable<Integer>, Validated {
  /** The defaults of {@code study versions}' shared options: a short study (the published one in the description). */
  static final class Defaults extends StudyDefaults {
    Defaults() {
      super(Map.of("--rounds", "2", "--steps", "mytools", "--clients", "1", "--duration", "1s", "--warmup", "0s",
          "--between-steps", "none", "--tables", "4", "--table-size", "10000"));
    }
  }

  @Option(names = "--pg", paramLabel = "MAJOR,MAJOR", split = ",", defaultValue = "11,14,17",
      description = "PostgreSQL majors, the trend's base first (default: ${DEFAULT-VALUE}; embedded: 11..17).")
  List<Integer> majors;

  @Option(names = "--pg-setting", paramLabel = "NAME=VALUE",
      description = "A setting of every embedded server (repeatable), checked on a server of each major before "
          + "anything runs; e.g. shared_buffers=1GB. MAJOR:NAME=VALUE sets it on that major's servers only, e.g. "
          + "17:enable_indexscan=off, a handicap of known size on one side.")
  Map<String, String> pgSettings = new LinkedHashMap<>();

  @Option(names = "--preset", paramLabel = "NAME",
      description = "published-small: as close to the published study as 2 cores run in under an hour for two majors:"
          + " --steps mytools-2023 --tables 4 --table-size 1000000 --read-duration 10s --write-duration 20s --warmup 2s"
          + " (a run about 12 minutes, --pg 11,16 --rounds 2 about 50); an option given on the command line wins.")
  String preset;

  @Option(names = "--design", paramLabel = "DESIGN", defaultValue = "interleaved", converter = Design.Converter.class,
      description = "interleaved, sequential or duet (default: ${DEFAULT-VALUE}).")
  Design design;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "study-versions",
      description = "A new or empty folder for runs/, trend/, study.json (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin
  RoundsOption rounds;

  @Mixin
  StudyOptions options;

  @Spec
  CommandSpec spec;

  /** What {@link #validate} made of the options. */
  private VersionStudyPlan plan;
  private Study<TrendReport> study;

  /**
   * Every option before anything starts or is written: α, margin and correction, the plan (majors,
   * rounds, looks, CPU sets), the majors' binaries and the runs' loadgen options.
   */
  @Override
  public void validate(Preflight before) {
    applyPreset();
    StatisticsSettings settings = options.settings();
    DuetCpus cpus = options.duet.cpus(design == Design.DUET);
    SequentialLooks looks = options.untilDecided.looks(design, settings);
    plan = StudyPlan.fromOptions(() -> new VersionStudyPlan(majors, rounds.rounds(looks), options.seed(),
        options.sysbench.workload(cpus), options.duet.serverSettings(design == Design.DUET, pgSettings),
        options.pgDir(), design, options.duet.aaRounds(), cpus, looks));
    Path outDir = out.toAbsolutePath().normalize();
    study = options.study(plan, outDir, spec.commandLine().getErr(), settings);
    study.validate();
  }

  /** {@code --preset}'s values where the command line gives none. */
  void applyPreset() {
    if (preset != null) {
      StudyPreset.byName(preset).apply(spec);
    }
  }

  @Override
  public List<Path> writes() {
    return options.writes(out);
  }

  @Override
  public Integer call() throws Exception {
    validate(Preflight.ALONE);
    Path outDir = out.toAbsolutePath().normalize();
    String runs = design == Design.DUET
        ? plan.measurements(outDir, "plan").size() + " pairs of runs at once on " + StudyOptions.cpuSets(plan.cpus())
            + (plan.looks() == null ? "" : ", run until decided: " + plan.looks().inWords())
        : plan.runOrder().size() + " runs: " + String.join(" ", plan.runOrder().stream()
            .map(VersionStudyPlan.Run::dirName).toList());
    return options.run(study, plan, outDir, spec, runs, "study versions", (stdout, outcome) -> {
      Study.printScope(stdout, outcome.report().scope());
      stdout.println();
      TrendMarkdown.terminalLines(outcome.report()).forEach(stdout::println);
      if (outcome.control() != null) {
        stdout.println(outcome.control().sentence());
      }
      stdout.println();
      stdout.println("Trend report: " + outDir.resolve("trend").resolve(TrendFiles.HTML) + " (also " + TrendFiles.JSON
          + ", " + TrendFiles.MARKDOWN + ")");
      if (outcome.aaDir() != null) {
        stdout.println("a/a control:  " + outcome.aaDir().resolve(CompareFiles.HTML));
      }
    }, "Run order:    ", FailOn::calls);
  }
}
