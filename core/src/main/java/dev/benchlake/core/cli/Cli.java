package dev.benchlake.core.cli;

import dev.benchlake.core.TerminalText;
import dev.benchlake.core.redaction.Redaction;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * Builds picocli command lines with benchlake's conventions: exit codes of {@link ExitCode}, one
 * clear line on stderr for bad usage, bad input and runtime failures alike, a stack trace only for
 * real failures (and only with {@code BENCHLAKE_DEBUG=1} or a bug that has no message). Whatever it
 * prints of an error passes through {@link Redaction}: a message may quote what the user typed or a
 * library's URL.
 */
public final class Cli {
  private Cli() {}

  /**
   * A configured command line for {@code command} (a {@code @Command} instance): its out and err
   * escape control characters ({@link TerminalText}), whatever writers it is given, and its usage
   * help is plain text (no ANSI colours, which the escaping would show as text).
   */
  public static CommandLine commandLine(Object command) {
    CommandLine cl = new EscapingCommandLine(command);
    cl.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setAbbreviatedOptionsAllowed(false);
    cl.setExitCodeExceptionMapper(Cli::exitCodeOf);
    cl.setParameterExceptionHandler(Cli::onParameterException);
    cl.setExecutionExceptionHandler(Cli::onExecutionException);
    cl.setExecutionStrategy(Cli::runLast);
    return cl;
  }

  /**
   * A command line whose out and err are always {@link TerminalText#escaping} writers: picocli's own
   * (System.out and System.err, made on first use) and any a caller sets (a batch, a test).
   */
  private static final class EscapingCommandLine extends CommandLine {
    EscapingCommandLine(Object command) {
      super(command);
    }

    @Override
    public CommandLine setOut(PrintWriter out) {
      return super.setOut(TerminalText.escaping(out));
    }

    @Override
    public CommandLine setErr(PrintWriter err) {
      return super.setErr(TerminalText.escaping(err));
    }
  }

  /**
   * picocli's default strategy, but for a failed read or write that a library threw as an
   * {@link Error} with the {@link IOException} as its cause (Hadoop's local file system's
   * {@code FSError}, which a full disk under Delta's log commit gives): picocli hands an Error to no
   * handler, so it went out of {@code main} as a stack trace. Here it is a runtime failure like any
   * other, said in one line by {@link #onExecutionException}.
   */
  private static int runLast(CommandLine.ParseResult parseResult) {
    try {
      return new CommandLine.RunLast().execute(parseResult);
    } catch (Error e) {
      if (!(e.getCause() instanceof IOException)) {
        throw e;
      }
      List<CommandLine> commands = parseResult.asCommandLineList();
      throw new CommandLine.ExecutionException(commands.get(commands.size() - 1), e.toString(),
          new IllegalStateException(e.getMessage(), e));
    }
  }

  /** Runs {@code command} with {@code args} and returns the exit code. */
  public static int execute(Object command, String... args) {
    return commandLine(command).execute(args);
  }

  private static int exitCodeOf(Throwable t) {
    return (badInput(t) != null || t instanceof CommandLine.ParameterException)
        ? ExitCode.BAD_INPUT
        : ExitCode.FAILURE;
  }

  /** The {@link BadInputException} in {@code t}'s cause chain (Spark wraps those thrown in tasks). */
  static BadInputException badInput(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof BadInputException bad) {
        return bad;
      }
    }
    return null;
  }

  private static int onParameterException(CommandLine.ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    err.println(commandPath(cl) + ": " + Redaction.scrub(e.getMessage()));
    if (e.getCause() instanceof CommandLine.TypeConversionException) {
      // A value out of its form or range ("Invalid value for option '--duration': '0s' is not above 0"):
      // the line says what to give, one line as any bad input.
      err.flush();
      return ExitCode.BAD_INPUT;
    }
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Try '" + commandPath(cl) + " --help'.");
    }
    err.flush();
    return ExitCode.BAD_INPUT;
  }

  private static int onExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parseResult) {
    PrintWriter err = cl.getErr();
    BadInputException bad = badInput(e);
    if (bad == null && !fullDisk(e)) {
      bad = explained(e, cl);
    }
    if (bad != null) {
      err.println(commandPath(cl) + ": " + oneLine(bad.getMessage()));
      if (debug()) {
        printStackTrace(e, err);
      }
      err.flush();
      return ExitCode.BAD_INPUT;
    }
    String message = oneLine(describe(e));
    boolean trace = debug() || e.getMessage() == null;
    if (fullDisk(e)) {
      // The machine's state, not a bug: what to do next helps, a stack trace would not.
      err.println(commandPath(cl) + ": failed: " + message + "; free some space and run it again");
    } else {
      err.println(commandPath(cl) + ": failed: " + message + (trace ? "" : " (set BENCHLAKE_DEBUG=1 for the stack trace)"));
    }
    if (trace) {
      printStackTrace(e, err);
    }
    err.flush();
    return ExitCode.FAILURE;
  }

  /** What the failed command's {@link FailureExplainer}s (itself, its mixins) make of {@code e}, or null. */
  private static BadInputException explained(Exception e, CommandLine cl) {
    List<Object> parts = new java.util.ArrayList<>(cl.getMixins().values());
    parts.add(0, cl.getCommand());
    for (Object part : parts) {
      if (part instanceof FailureExplainer explainer) {
        BadInputException bad = explainer.explain(e);
        if (bad != null) {
          return bad;
        }
      }
    }
    return null;
  }

  /**
   * Whether {@code t} comes from a full disk: Java has no exception of its own for it, only the
   * operating system's text in an {@code IOException}'s message (Hadoop's local file system wraps
   * that in an {@code FSError}, Spark in its task failure).
   */
  static boolean fullDisk(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      String message = c.getMessage();
      if (message != null && (message.contains("No space left on device") || message.contains("not enough space on the disk"))) {
        return true;
      }
    }
    return false;
  }

  /** The message of the innermost cause that has one, with its type when that helps. */
  static String describe(Throwable t) {
    Throwable best = t;
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c.getMessage() != null && !c.getMessage().isBlank()) {
        best = c;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    String message = best.getMessage();
    if (message == null) {
      return best.getClass().getName();
    }
    return best instanceof RuntimeException && best.getClass().getPackageName().startsWith("java.")
        ? best.getClass().getSimpleName() + ": " + message
        : message;
  }

  /**
   * The message on one line: an error is one line on stderr, whatever a library put in its message
   * (parsers point at the culprit with a caret on the next line; a hostile file name may hold a
   * newline), its secrets redacted.
   */
  public static String oneLine(String message) {
    return message == null ? "" : Redaction.scrub(message.strip().replaceAll("\\s*\\R\\s*", " "));
  }

  private static void printStackTrace(Throwable e, PrintWriter err) {
    StringWriter trace = new StringWriter();
    e.printStackTrace(new PrintWriter(trace));
    err.print(Redaction.scrub(trace.toString()));
  }

  /** E.g. {@code benchlake runs}: the names from the root command down to {@code cl}. */
  private static String commandPath(CommandLine cl) {
    StringBuilder path = new StringBuilder(cl.getCommandName());
    for (CommandLine c = cl.getParent(); c != null; c = c.getParent()) {
      path.insert(0, c.getCommandName() + " ");
    }
    return path.toString();
  }

  private static boolean debug() {
    String value = System.getenv("BENCHLAKE_DEBUG");
    return value != null && !value.isBlank() && !value.equals("0");
  }
}
