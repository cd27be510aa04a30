package dev.benchlake.app.batch;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.Preflight;
import dev.benchlake.core.cli.Validated;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.core.redaction.Redaction;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code benchlake batch}: several benchlake commands in one JVM, so that they share one Spark
 * session and pay its start-up (seconds) once.
 *
 * <p>Why a batch and not a daemon that keeps a session for later commands: a batch is a plain
 * process, with nothing left running, nothing to find, secure, version-match or restart; its
 * output, exit code and lifetime are those of one command, so scripts, CI and notebooks use it
 * like any other; and a user's script of several commands, the case worth speeding up, is a
 * batch by nature. A daemon would also win the first start of a session, but it would be a
 * server to run, with state (a session whose settings a previous command chose) that a report
 * should not depend on.
 */
@Command(name = "batch", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Run benchlake commands, one per line of FILE (or of stdin with -), in this one process: Spark starts once "
          + "for all of them, not once per command.",
      "A line is what you would type after 'benchlake' in a shell: words split on blanks, '…' and \"…\" quote, "
          + "\\ escapes, # starts a comment; nothing is expanded (no variables, no globs); a leading 'benchlake' "
          + "is allowed. Blank lines and comments are skipped. Every line is parsed as its command parses it (unknown "
          + "options, missing required ones, values of the wrong type or out of range) and checked as its command checks "
          + "it first (a --margin, a --metric, a missing input, a refused URL) before the first runs, so a bad value on "
          + "any line fails the batch before anything is done, each bad line told on a line of its own; an input an "
          + "earlier line writes need not exist yet.",
      "The first Spark command's --master and --conf start the session; the later commands reuse it (their "
          + "--master and static --conf settings cannot change it). Each command's output goes to stdout and "
          + "stderr as usual; before it, stderr shows 'batch: line N: COMMAND' (secret values redacted)."},
    // %% : picocli formats the footer (a lone %s made it print a WARN with every --help).
    footer = {"", "Example: printf '%%s\\n' 'ingest --warehouse wh results/a' 'compare --warehouse wh --baseline v=a "
        + "--candidate v=b --out report' | benchlake batch -",
      "Exit codes: 0 every command succeeded; otherwise the exit code of the first command that failed (the batch "
          + "stops there unless --keep-going), after 'batch: line N: exit code X' on stderr; 2 also for a file that "
          + "cannot be read or a line that does not parse (nothing run, whatever --keep-going says)."})
public final class BatchCommand implements Callable<Integer> {
  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", defaultValue = "-",
      description = "The commands, one per line (UTF-8); - (the default) reads stdin.")
  String file;

  @Option(names = "--keep-going", description = "Run every line even after a failure; exit with the first failure's code.")
  boolean keepGoing;

  @Spec
  CommandSpec spec;

  /** A fresh benchlake command line per line (picocli keeps option values in the command objects). */
  private final Supplier<CommandLine> commands;
  private final InputStream stdin;

  public BatchCommand(Supplier<CommandLine> commands) {
    this(commands, System.in);
  }

  BatchCommand(Supplier<CommandLine> commands, InputStream stdin) {
    this.commands = commands;
    this.stdin = stdin;
  }

  /** One command of the batch: its line number, its text and its words. */
  record Line(int number, String text, List<String> words) {}

  @Override
  public Integer call() throws IOException {
    String source = file.equals("-") ? "stdin" : file;
    List<Line> lines = parse(read(), source);
    check(lines, source);
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    int firstFailure = ExitCode.OK;
    for (Line line : lines) {
      err.println("batch: line " + line.number() + ": " + shown(line));
      err.flush();
      CommandLine command = commands.get();
      command.setOut(out);
      command.setErr(err);
      int code = command.execute(line.words().toArray(String[]::new));
      out.flush();
      if (code != ExitCode.OK) {
        err.println("batch: line " + line.number() + ": exit code " + code);
        err.flush();
        if (firstFailure == ExitCode.OK) {
          firstFailure = code;
        }
        if (!keepGoing) {
          return code;
        }
      }
    }
    return firstFailure;
  }

  /**
   * Checks every line as its command will before it does anything, on a command line of its own that
   * is then dropped, so that nothing runs when any line is wrong: picocli's parse (the command's
   * name, unknown and missing options, values that do not convert or leave their range), then the
   * command's own {@link Validated#validate} (every value and file it can check without side
   * effects: a --margin, a --metric, a missing input, a refused URL). An input that an earlier line
   * writes ({@link Validated#writes}: a loadgen's --out, an ingest's warehouse) need not exist yet.
   * Every bad line is told, not only the first: one run of the batch shows all there is to fix.
   *
   * @throws BadInputException naming the bad line and its cause (several: each is a line on stderr
   *     first, and the exception counts them)
   */
  private void check(List<Line> lines, String source) {
    Preflight before = Preflight.ALONE;
    List<String> bad = new ArrayList<>();
    for (Line line : lines) {
      try {
        CommandLine.ParseResult parsed = commands.get().parseArgs(line.words().toArray(String[]::new));
        while (parsed.hasSubcommand()) {
          parsed = parsed.subcommand();
        }
        if (!parsed.isUsageHelpRequested() && !parsed.isVersionHelpRequested()
            && parsed.commandSpec().userObject() instanceof Validated command) {
          command.validate(before);
          before = before.and(command.writes());
        }
      } catch (CommandLine.ParameterException | BadInputException e) {
        bad.add(source + ": line " + line.number() + ": " + e.getMessage());
      }
    }
    if (bad.size() == 1) {
      throw new BadInputException(bad.get(0) + " (nothing was run: fix the line and run the batch again)");
    }
    if (!bad.isEmpty()) {
      PrintWriter err = spec.commandLine().getErr();
      bad.forEach(b -> err.println("benchlake batch: " + Cli.oneLine(b)));
      err.flush();
      throw new BadInputException(source + ": " + bad.size() + " lines are bad input (each above; nothing was run: fix "
          + "them and run the batch again)");
    }
  }

  /** The line as written, or, when it holds a secret value, its words with those values replaced. */
  private static String shown(Line line) {
    List<String> redacted = Redaction.args(line.words());
    return redacted.equals(line.words()) ? Redaction.scrub(line.text().strip()) : String.join(" ", redacted);
  }

  private List<String> read() throws IOException {
    if (file.equals("-")) {
      return new BufferedReader(new InputStreamReader(stdin, StandardCharsets.UTF_8)).lines().toList();
    }
    try {
      return Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new BadInputException(file + ": no such file");
    }
  }

  /**
   * The commands of a batch file: every non-blank, non-comment line.
   *
   * @throws BadInputException naming the line and the cause, for a quote left open or a nested batch
   */
  static List<Line> parse(List<String> texts, String source) {
    List<Line> lines = new ArrayList<>();
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      List<String> words;
      try {
        words = ShellWords.split(text);
      } catch (IllegalArgumentException e) {
        throw new BadInputException(source + ": line " + (i + 1) + ": " + e.getMessage());
      }
      if (words.isEmpty()) {
        continue;
      }
      if (words.get(0).equals("benchlake")) {
        words = words.subList(1, words.size()); // a line pasted from a shell script
      }
      if (words.isEmpty() || words.get(0).equals("batch")) {
        throw new BadInputException(source + ": line " + (i + 1) + ": " + (words.isEmpty()
            ? "no command after 'benchlake'" : "a batch cannot run a batch"));
      }
      lines.add(new Line(i + 1, text, words));
    }
    return lines;
  }
}
