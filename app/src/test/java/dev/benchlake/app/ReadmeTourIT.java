package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.testing.CommandRun;
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
 * The docs run as written (issue 26: the tour's step 3 exited 2; issue 45: 6 of its 13 commands
 * named inputs and a server a newcomer does not have, and ran here through a substitution table).
 * Every command of every {@code bash} block of README.md, docs/tour.md and docs/reference.md ({@link
 * #DOCS}, read when the test runs, so an edit of the docs is tested as it stands) runs exactly as
 * written, or, outside the tour only, is skipped by name for a reason ({@link #SKIPPED}: the build
 * this test runs in, a cluster, a bucket): a command added without that decision runs, and fails
 * the test if it cannot. The commands run in the docs' order in one folder laid out as a checkout's
 * root ({@code bin/benchlake}, the built launcher; {@code samples/}, the repository's), as bash runs
 * what a user pastes (globs, quotes, {@code &}, the pipe into {@code batch -}), Spark commands that
 * follow each other in one {@code batch} of their words as bash made them ({@link #BATCHED}); each
 * exits 0, and the run folders and reports they name are there as the tour describes them
 * (report.json, report.md, report.html; a study's study.json, its trend or its compare/ and aa/
 * reports), each report with steps. The tour's stand-in Windows server ({@code loadgen --serve} in
 * the background) must be gone when the tour ends. Each command's (or batch's) wall time is printed.
 *
 * <p>The studies ({@code study versions}, {@code study ab}, {@code study clean}: a fresh server per
 * run, two per duet round, minutes even at their fewest rounds) run only with {@code
 * -Dbenchlake.readme.full=true}; by default each is parsed instead, as bash splits it and as
 * benchlake's own command line reads it (every option there, every value converting), so that a
 * renamed option fails here, while {@code StudyVersionsTest} and {@code StudyDuetTest} run both
 * commands end to end.
 */
@org.junit.jupiter.api.Tag("integration")
class ReadmeTourIT {
  /** The docs whose commands run, in this order; only the tour's must all run. */
  static final List<String> DOCS = List.of("README.md", "docs/tour.md", "docs/reference.md");
  private static final String TOUR = "docs/tour.md";

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
   * The Spark commands that run together when the docs have them one after the other (the tour's
   * step 2's ingests; step 3's compare with step 4's trend): one {@code bin/benchlake batch} of
   * them, one JVM and one Spark start for the group instead of one each, the later commands on a
   * warm JIT (on a loaded 2-core machine, in three comparisons, those five commands took 284, 253
   * and 162 s as five processes, 123, 144 and 134 s as two batches). Each command is still the
   * tour's: bash makes its words (globs, quotes, comments, continuations, as for a pasted line),
   * benchlake's command line parses and runs them, and its exit code is checked, by its line of
   * the batch. What a command's own process adds is the launcher's choice of JVM for it, which is
   * the JVM defaults for these (LauncherProfileTest), and a Spark session of its own, which matters
   * only for {@code --master} and {@code --conf}: a command that gives either runs alone. The
   * Kernel reads ({@code runs}, {@code rejects}, {@code verify}: a short-lived JVM of their own),
   * loadgen, shell lines and the tour's own {@code batch} run as separate processes.
   */
  static final Set<String> BATCHED = Set.of("ingest", "compare", "trend");

  private static final Map<String, String> ENV = Map.of("BENCHLAKE_LOG_LEVEL", "warn");
  private static final String LAUNCHER = "bin/benchlake ";
  /** The file the tour's stand-in Windows server ({@code loadgen --serve &}) writes its process id to. */
  private static final String SERVER_PID = "windows.pid";

  /** A command as written, and the doc it is written in. */
  record Tour(String doc, String command) {}

  @TempDir
  Path dir;

  @Test
  void everyCommandOfTheDocsRunsAsWrittenOrIsSkippedForAReason() throws Exception {
    Path root = CommandRun.launcher(ReadmeTourIT.class).getParent().getParent();
    List<Tour> commands = new ArrayList<>();
    for (String doc : DOCS) {
      commands(Files.readString(root.resolve(doc), StandardCharsets.UTF_8)).forEach(c -> commands.add(new Tour(doc, c)));
    }
    assertThat(commands.stream().filter(c -> c.doc().equals(TOUR))).as("the commands of " + TOUR).hasSizeGreaterThan(20);
    Path work = checkout(root);
    int[] skipped = new int[SKIPPED.size()];
    Map<String, String> outputs = new LinkedHashMap<>();
    List<Tour> group = new ArrayList<>();
    long tourStarted = System.nanoTime();
    try {
      for (Tour tour : commands) {
        String command = tour.command();
        int skip = skipOf(command);
        if (skip >= 0) {
          assertThat(tour.doc()).as("%s skipped as '%s': every command of the tour runs", command,
              SKIPPED.get(skip).start()).isNotEqualTo(TOUR);
          skipped[skip]++;
          System.out.println("skipped (" + SKIPPED.get(skip).why() + "): " + command);
          continue;
        }
        if (batched(command)) {
          group.add(tour);
          continue;
        }
        runBatched(work, group, outputs);
        long started = System.nanoTime();
        if (!FULL && command.startsWith(STUDY)) {
          parse(work, command);
          System.out.printf(Locale.ROOT, "%6.1f s  parsed, not run (-Dbenchlake.readme.full=true runs it): %s%n",
              (System.nanoTime() - started) / 1e9, command);
          continue;
        }
        CommandRun run = CommandRun.shell(work, ENV, command);
        System.out.printf(Locale.ROOT, "%6.1f s  %s%n", (System.nanoTime() - started) / 1e9, command);
        assertThat(run.exitCode()).as("exit code of %s's\n%s\n%s", tour.doc(), command, run.stderr()).isZero();
        written(command, outputs);
      }
      runBatched(work, group, outputs);
    } finally {
      stopServer(work);
    }
    System.out.printf(Locale.ROOT, "%6.1f s  the whole tour%n", (System.nanoTime() - tourStarted) / 1e9);
    for (int i = 0; i < skipped.length; i++) {
      assertThat(skipped[i]).as("commands skipped as '%s' (%s): decide on the others, or remove it",
          SKIPPED.get(i).start(), SKIPPED.get(i).why()).isEqualTo(SKIPPED.get(i).commands());
    }
    assertThat(outputs.values()).as("what the tour writes").contains("loadgen", "compare", "trend");
    if (FULL) {
      assertThat(outputs.values()).as("what the tour's studies write").contains("study versions", "study ab");
    }
    outputs.forEach((folder, command) -> assertWritten(work.resolve(folder), command));
  }

  /**
   * Waits for the tour's stand-in server, which the tour stops with {@code kill}, to be gone; if a
   * command failed before that, stops it (SIGTERM: it stops its PostgreSQL) so that nothing outlives the test.
   */
  private static void stopServer(Path work) throws Exception {
    Path pidFile = work.resolve(SERVER_PID);
    if (!Files.isRegularFile(pidFile)) {
      return;
    }
    java.util.Optional<ProcessHandle> server = ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()));
    if (server.isEmpty()) {
      return;
    }
    boolean gone = waitFor(server.get());
    if (!gone) {
      server.get().destroy();
      waitFor(server.get());
    }
    assertThat(gone).as("the tour's stand-in server (%s) is stopped by the tour", pidFile).isTrue();
  }

  private static boolean waitFor(ProcessHandle process) throws Exception {
    try {
      process.onExit().get(60, java.util.concurrent.TimeUnit.SECONDS);
      return true;
    } catch (java.util.concurrent.TimeoutException e) {
      return false;
    }
  }

  /**
   * The commands of a doc's {@code bash} blocks, in order: a line continued by {@code \} is one
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
        assertThat(command).as("a command of the docs ends in a continuation").isEmpty();
      }
    }
    return commands;
  }

  /**
   * Parses {@code command} (a {@code bin/benchlake} line) as benchlake would run it: its words as
   * bash makes them ({@code printf} in place of the launcher), read by benchlake's command line.
   */
  private static void parse(Path work, String command) throws Exception {
    String[] args = words(work, command).toArray(String[]::new);
    try {
      Benchlake.commandLine().parseArgs(args);
    } catch (picocli.CommandLine.ParameterException e) {
      throw new AssertionError(command + "\ndoes not parse: " + e.getMessage(), e);
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
    assertThat(run.exitCode()).as("exit code of %s's\n%s\nin a batch of %d (%s)\n%s",
        culprit.doc(), culprit.command(), group.size(), file, run.stderr()).isZero();
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

  /**
   * The folder the tour runs in, laid out as the root of a built checkout: {@code bin/benchlake}
   * (the built launcher) and {@code samples/} (the repository's sample results), nothing else.
   */
  private Path checkout(Path root) throws Exception {
    Path work = Files.createDirectories(dir.resolve("tour"));
    Files.createSymbolicLink(Files.createDirectories(work.resolve("bin")).resolve("benchlake"),
        CommandRun.launcher(ReadmeTourIT.class));
    Files.createSymbolicLink(work.resolve("samples"), root.resolve("samples"));
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
