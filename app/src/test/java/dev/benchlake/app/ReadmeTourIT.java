package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.commonmark.node.FencedCodeBlock;
import org.commonmark.node.Node;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * README.md runs as written (issue 26: its tour's step 3 exited 2). Every command of every
 * {@code bash} block of README.md, read when the test runs (so an edit of the README is tested as
 * it stands), either runs or is skipped by name for a reason ({@link #SKIPPED}): a command added to
 * the README without that decision runs, and fails the test if it cannot. The commands run in
 * README's order in one folder, through the built {@code bin/benchlake}, as bash runs what a user
 * pastes (globs, quotes, the pipe into {@code batch -}), Spark commands that follow each other in
 * one {@code batch} of their words as bash made them ({@link #BATCHED}); each exits 0, and the run folders and
 * reports they name are there as the README describes them (report.json, report.md, report.html;
 * a study's study.json, its trend or its compare/ and aa/ reports), each report with steps.
 *
 * <p>What differs from the README is explicit: {@link #SUBSTITUTIONS} shrinks the values that make
 * a command slow (and points the one command that needs a Windows server at an embedded
 * PostgreSQL), each saying why the command stays the same command; each must apply somewhere (a
 * stale entry fails the test), and no other value changes. The inputs the tour assumes are made
 * from ingest's real fixtures ({@link #prepareInputs}). Each command's (or batch's) wall time is printed.
 *
 * <p>The studies ({@code study versions}, {@code study ab}: a fresh server per run, two per duet
 * round, minutes even at their fewest rounds) run only with {@code -Dbenchlake.readme.full=true};
 * by default each is parsed instead, as bash splits it and as benchlake's own command line reads
 * it (every option there, every value converting), so that a renamed option fails here, while
 * {@code StudyVersionsTest} and {@code StudyDuetTest} run both commands end to end.
 */
@org.junit.jupiter.api.Tag("integration")
class ReadmeTourIT {
  /**
   * A change made to a README command before it runs: every match of {@code pattern} becomes
   * {@code replacement} ({@code $1}… groups; {@code SERVER_URL} and {@code SERVER_USER}: the
   * embedded server's), and why the command is still the one the README shows.
   */
  record Substitution(Pattern pattern, String replacement, String why) {
    Substitution(String regex, String replacement, String why) {
      this(Pattern.compile(regex, Pattern.DOTALL), replacement, why);
    }
  }

  static final List<Substitution> SUBSTITUTIONS = List.of(
      new Substitution("(--(?:read-|write-)?duration) \\S+", "$1 1s",
          "each step measured for 1 s, not a minute: every step still runs, is measured and reported"),
      new Substitution("--warmup \\S+", "--warmup 0s", "no warm-up: a warm-up is not measured"),
      new Substitution("^(bin/benchlake study ab)(?!.*--duration)", "$1 --duration 1s --warmup 0s",
          "study ab's default 10 s steps and 2 s warm-ups, as the durations above"),
      new Substitution("^(bin/benchlake study ab)(?!.*--steps)", "$1 --steps point-select",
          "one of study ab's 4 default steps: a step runs on both sides behind the barrier, swapped every round, with"
              + " the a/a control, as four would"),
      new Substitution("--rounds \\S+", "--rounds 2",
          "2 rounds a side, the fewest study ab takes (the run is the unit of replication); its a/a control keeps its"
              + " default 2 rounds"),
      new Substitution("--table-size \\S+", "--table-size 1000", "the study's tables loaded with 1000 rows, not 1M"),
      new Substitution("--repeats \\S+", "--repeats 2", "two rounds: the fewest that give the trend an interval"),
      new Substitution("--pg 11,12,13,14,15,16,17", "--pg 16,17",
          "two majors (a trend needs a base and another): every major is the same embedded server and loadgen"),
      new Substitution("--steps mytools", "--steps point-query_range=100,update-index_range=100",
          "a read and a write step of the study's 48: each of --read-duration and --write-duration is used"),
      new Substitution("--jdbc-url \\S+ --user \\S+", "--jdbc-url SERVER_URL --user SERVER_USER",
          "the Windows server: an embedded PostgreSQL 16 that the test starts, reached by URL as that one would be"));

  /**
   * A command that is not run: the commands that start with {@code start} (white space folded),
   * exactly {@code commands} of them (a command added beside them needs a decision too), and why.
   */
  record Skip(String start, int commands, String why) {}

  static final List<Skip> SKIPPED = List.of(
      new Skip("mvn -q -DskipTests package && bin/benchlake quickstart", 1,
          "the build this test runs in; the quickstart takes minutes and is QuickstartIT's"),
      new Skip("bin/test", 1, "runs every test, this one among them"),
      new Skip("jupyter notebook notebooks/", 1,
          "an interactive notebook server; bin/test runs the notebooks headless (notebooks/run-all.sh)"),
      new Skip("spark-submit --master spark://HOST:7077", 2,
          "needs a Spark cluster at HOST; StandaloneClusterIT submits to a real standalone one"),
      new Skip("spark-submit --master yarn", 1, "needs YARN and HDFS; HdfsRoundTripIT runs ingest on HDFS"),
      new Skip("bin/benchlake runs --warehouse hdfs://", 1, "needs HDFS; HdfsRoundTripIT reads a warehouse there"),
      new Skip("bin/benchlake ingest --warehouse s3a://", 3,
          "needs an S3 bucket and hadoop-aws on the class path; S3RoundTripIT runs ingest against S3Proxy"),
      new Skip("export AWS_ACCESS_KEY_ID=…", 1, "placeholder credentials (…), for the s3a:// commands"));

  /** Run the studies too, not only parse them: minutes. */
  private static final boolean FULL = Boolean.getBoolean("benchlake.readme.full");
  private static final String STUDY = "bin/benchlake study ";

  /** Where a command writes: loadgen's run folder, a report's or a study's folder. */
  private static final Pattern OUT = Pattern.compile(
      "(?:^|[\\s'])(loadgen|compare|trend|study versions|study ab)\\s[^'|]*?--out\\s+([^\\s']+)");

  /**
   * The Spark commands that run together when the README has them one after the other (its step
   * 2's three ingests; step 3's compare with step 4's trend): one {@code bin/benchlake batch} of
   * them, one JVM and one Spark start for the group instead of one each, the later commands on a
   * warm JIT (on a loaded 2-core machine, in three comparisons, those five commands took 284, 253
   * and 162 s as five processes, 123, 144 and 134 s as two batches). Each command is still the
   * README's: bash makes its words (globs, quotes, comments, continuations, as for a pasted line),
   * benchlake's command line parses and runs them, and its exit code is checked, by its line of
   * the batch. What a command's own process adds is the launcher's choice of JVM for it, which is
   * the JVM defaults for these (LauncherProfileTest), and a Spark session of its own, which matters
   * only for {@code --master} and {@code --conf}: a command that gives either runs alone. The
   * Kernel reads ({@code runs}, {@code rejects}, {@code verify}: a short-lived JVM of their own),
   * loadgen and the README's own {@code batch} run as separate processes.
   */
  static final Set<String> BATCHED = Set.of("ingest", "compare", "trend");

  private static final Map<String, String> ENV = Map.of("BENCHLAKE_LOG_LEVEL", "warn");
  private static final String LAUNCHER = "bin/benchlake ";

  /** A README command ({@code written}) and what runs ({@code command}: after {@link #SUBSTITUTIONS}). */
  record Tour(String written, String command) {}

  @TempDir
  Path dir;

  @Test
  void everyCommandOfTheReadmeRunsOrIsSkippedForAReason() throws Exception {
    Path readme = CommandRun.launcher(ReadmeTourIT.class).getParent().getParent().resolve("README.md");
    List<String> commands = commands(Files.readString(readme, StandardCharsets.UTF_8));
    assertThat(commands).as("the commands of README.md").hasSizeGreaterThan(20);
    Path work = prepareInputs();
    int[] used = new int[SUBSTITUTIONS.size()];
    int[] skipped = new int[SKIPPED.size()];
    Map<String, String> outputs = new LinkedHashMap<>();
    List<Tour> group = new ArrayList<>();
    long tourStarted = System.nanoTime();
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(16, Map.of(), 20, dir))) {
      for (String written : commands) {
        int skip = skipOf(written);
        if (skip >= 0) {
          skipped[skip]++;
          System.out.println("skipped (" + SKIPPED.get(skip).why() + "): " + written);
          continue;
        }
        String command = substitute(written, used)
            .replace("SERVER_URL", server.jdbcUrl()).replace("SERVER_USER", server.user());
        if (batched(command)) {
          group.add(new Tour(written, command));
          continue;
        }
        runBatched(work, group, outputs);
        long started = System.nanoTime();
        if (!FULL && command.startsWith(STUDY)) {
          parse(work, written, command);
          System.out.printf(Locale.ROOT, "%6.1f s  parsed, not run (-Dbenchlake.readme.full=true runs it): %s%n",
              (System.nanoTime() - started) / 1e9, command);
          continue;
        }
        CommandRun run = CommandRun.shell(work, ENV, command);
        System.out.printf(Locale.ROOT, "%6.1f s  %s%n", (System.nanoTime() - started) / 1e9, command);
        assertThat(run.exitCode()).as("exit code of the README's\n%s\nrun as\n%s\n%s", written, command, run.stderr())
            .isZero();
        written(command, outputs);
      }
      runBatched(work, group, outputs);
    }
    System.out.printf(Locale.ROOT, "%6.1f s  the whole tour%n", (System.nanoTime() - tourStarted) / 1e9);
    for (int i = 0; i < used.length; i++) {
      assertThat(used[i]).as("substitution %s (%s) applies to no command of the README: remove it",
          SUBSTITUTIONS.get(i).pattern(), SUBSTITUTIONS.get(i).why()).isPositive();
    }
    for (int i = 0; i < skipped.length; i++) {
      assertThat(skipped[i]).as("README commands skipped as '%s' (%s): decide on the others, or remove it",
          SKIPPED.get(i).start(), SKIPPED.get(i).why()).isEqualTo(SKIPPED.get(i).commands());
    }
    assertThat(outputs.values()).as("what the tour writes").contains("loadgen", "compare", "trend");
    if (FULL) {
      assertThat(outputs.values()).as("what the tour's studies write").contains("study versions", "study ab");
    }
    outputs.forEach((folder, command) -> assertWritten(work.resolve(folder), command));
  }

  /**
   * The commands of README's {@code bash} blocks, in order: a line continued by {@code \} is one
   * command with its continuations; blank lines and comments are none.
   */
  static List<String> commands(String markdown) {
    List<String> commands = new ArrayList<>();
    for (Node node = Parser.builder().build().parse(markdown).getFirstChild(); node != null; node = node.getNext()) {
      if (node instanceof FencedCodeBlock block && block.getInfo().equals("bash")) {
        StringBuilder command = new StringBuilder();
        for (String line : block.getLiteral().split("\n")) {
          if (command.isEmpty() && (line.isBlank() || line.stripLeading().startsWith("#"))) {
            continue;
          }
          command.append(line);
          if (line.endsWith("\\")) {
            command.append('\n');
          } else {
            commands.add(command.toString());
            command.setLength(0);
          }
        }
        assertThat(command).as("a command of README.md ends in a continuation").isEmpty();
      }
    }
    return commands;
  }

  /**
   * Parses {@code command} (a {@code bin/benchlake} line) as benchlake would run it: its words as
   * bash makes them ({@code printf} in place of the launcher), read by benchlake's command line.
   */
  private static void parse(Path work, String written, String command) throws Exception {
    String[] args = words(work, command).toArray(String[]::new);
    try {
      Benchlake.commandLine().parseArgs(args);
    } catch (picocli.CommandLine.ParameterException e) {
      throw new AssertionError("README's\n" + written + "\nrun as\n" + command + "\ndoes not parse: " + e.getMessage(), e);
    }
  }

  /** Whether {@code command} runs in a batch with its neighbours ({@link #BATCHED}). */
  private static boolean batched(String command) {
    if (!command.startsWith(LAUNCHER) || command.contains("--master") || command.contains("--conf")) {
      return false;
    }
    String name = command.substring(LAUNCHER.length()).split("\\s+", 2)[0];
    return BATCHED.contains(name);
  }

  /**
   * Runs {@code group} (empties it) as one {@code bin/benchlake batch} in {@code work}: each
   * command's words as bash makes them, quoted for the batch file; every line must exit 0.
   */
  private void runBatched(Path work, List<Tour> group, Map<String, String> outputs) throws Exception {
    if (group.isEmpty()) {
      return;
    }
    List<String> lines = new ArrayList<>();
    for (Tour tour : group) {
      lines.add(String.join(" ", words(work, tour.command()).stream().map(ReadmeTourIT::quoted).toList()));
    }
    Path file = Files.createTempFile(dir, "tour-", ".batch");
    Files.write(file, lines, StandardCharsets.UTF_8);
    long started = System.nanoTime();
    CommandRun run = CommandRun.shell(work, ENV, LAUNCHER + "batch " + file);
    System.out.printf(Locale.ROOT, "%6.1f s  one batch of %d:%n", (System.nanoTime() - started) / 1e9, group.size());
    group.forEach(tour -> System.out.println("          " + tour.command()));
    Matcher failed = Pattern.compile("batch: line (\\d+): exit code").matcher(run.stderr());
    Tour culprit = failed.find() ? group.get(Integer.parseInt(failed.group(1)) - 1) : group.get(0);
    assertThat(run.exitCode()).as("exit code of the README's\n%s\nrun as\n%s\nin a batch of %d (%s)\n%s",
        culprit.written(), culprit.command(), group.size(), file, run.stderr()).isZero();
    assertThat(run.stderr()).as("the batch ran every line").contains("batch: line " + group.size() + ": ");
    group.forEach(tour -> written(tour.command(), outputs));
    group.clear();
  }

  /** Records the folders {@code command} writes (see {@link #OUT}). */
  private static void written(String command, Map<String, String> outputs) {
    Matcher out = OUT.matcher(command.replace("\\\n", " "));
    while (out.find()) {
      outputs.put(out.group(2), out.group(1));
    }
  }

  /** The words bash makes of {@code command} (a {@code bin/benchlake} line) in {@code work}, the launcher's name dropped. */
  private static List<String> words(Path work, String command) throws Exception {
    CommandRun words = CommandRun.shell(work, Map.of(), "printf '%s\\0' " + command.substring(LAUNCHER.length()));
    assertThat(words.exitCode()).as("bash's words of %s: %s", command, words.stderr()).isZero();
    return List.of(words.stdout().substring(0, words.stdout().length() - 1).split("\\x00", -1));
  }

  /** {@code word} quoted as a batch line reads it back ({@code ShellWords}: '…', or "…" with \\ " $ ` escaped). */
  static String quoted(String word) {
    if (!word.contains("'")) {
      return "'" + word + "'";
    }
    return '"' + word.replaceAll("([\\\\\"$`])", "\\\\$1") + '"';
  }

  /** The index of the {@link #SKIPPED} entry {@code command} starts with, or -1. */
  private static int skipOf(String command) {
    String folded = command.replace("\\\n", " ").replaceAll("\\s+", " ").strip();
    for (int i = 0; i < SKIPPED.size(); i++) {
      if (folded.startsWith(SKIPPED.get(i).start())) {
        return i;
      }
    }
    return -1;
  }

  private static String substitute(String command, int[] used) {
    String result = command;
    for (int i = 0; i < SUBSTITUTIONS.size(); i++) {
      Matcher m = SUBSTITUTIONS.get(i).pattern().matcher(result);
      if (m.find()) {
        used[i]++;
        result = m.replaceAll(SUBSTITUTIONS.get(i).replacement());
      }
    }
    return result;
  }

  /**
   * The folder the tour runs in, with what it assumes is there: {@code bin/benchlake} (the built
   * launcher), sysbench outputs as {@code results/sysbench-*.txt} (ingest's real sysbench 1.0.20
   * fixtures) and a mytools result tree with a folder per round, {@code mytools-results/round<N>/}
   * (ingest's fixture tree: PostgreSQL 14 and 16, two rounds).
   */
  private Path prepareInputs() throws Exception {
    Path work = Files.createDirectories(dir.resolve("tour"));
    Path launcher = CommandRun.launcher(ReadmeTourIT.class);
    Files.createSymbolicLink(Files.createDirectories(work.resolve("bin")).resolve("benchlake"), launcher);
    Path fixtures = launcher.getParent().getParent().resolve("ingest/src/test/resources/dev/benchlake/ingest/fixtures");
    Path results = Files.createDirectories(work.resolve("results"));
    for (String test : List.of("oltp_point_select", "oltp_read_write")) {
      Files.copy(fixtures.resolve(test + ".txt"), results.resolve("sysbench-" + test + ".txt"));
    }
    for (int round = 1; round <= 2; round++) {
      FileTrees.copy(fixtures.resolve("mytools/r" + round), work.resolve("mytools-results/round" + round));
    }
    return work;
  }

  /** What {@code command} leaves in {@code folder}: a run, or a report whose JSON has steps. */
  private static void assertWritten(Path folder, String command) {
    switch (command) {
      case "loadgen" -> {
        assertThat(folder.resolve("manifest.json")).isNotEmptyFile();
        assertThat(folder.resolve("tasks.csv")).isNotEmptyFile();
      }
      case "compare" -> assertReport(folder, "report");
      case "trend" -> assertReport(folder, "trend");
      case "study versions" -> {
        assertThat(folder.resolve("study.json")).isNotEmptyFile();
        assertReport(folder.resolve("trend"), "trend");
      }
      case "study ab" -> {
        assertThat(folder.resolve("study.json")).isNotEmptyFile();
        assertReport(folder.resolve("compare"), "report");
        assertReport(folder.resolve("aa"), "report");
      }
      default -> throw new IllegalArgumentException(command);
    }
  }

  private static void assertReport(Path folder, String name) {
    for (String extension : List.of("json", "md", "html")) {
      assertThat(folder.resolve(name + "." + extension)).isNotEmptyFile();
    }
    try {
      JsonNode report = Json.mapper().readTree(folder.resolve(name + ".json").toFile());
      assertThat(report.get("steps")).as(folder + ": steps").isNotEmpty();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
