package dev.benchlake.core.cli;

import java.io.PrintWriter;
import picocli.CommandLine;

/**
 * Builds picocli command lines with benchlake's conventions: exit codes of {@link ExitCode}, one
 * clear line on stderr for bad usage or bad input, a stack trace only for real failures (and only
 * with {@code BENCHLAKE_DEBUG=1} or a bug that has no message).
 */
public final class Cli {
  private Cli() {}

  /** A configured command line for {@code command} (a {@code @Command} instance). */
  public static CommandLine commandLine(Object command) {
    CommandLine cl = new CommandLine(command);
    cl.setCaseInsensitiveEnumValuesAllowed(true);
    cl.setAbbreviatedOptionsAllowed(false);
    cl.setExitCodeExceptionMapper(Cli::exitCodeOf);
    cl.setParameterExceptionHandler(Cli::onParameterException);
    cl.setExecutionExceptionHandler(Cli::onExecutionException);
    return cl;
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
    err.println(commandPath(cl) + ": " + e.getMessage());
    if (!CommandLine.UnmatchedArgumentException.printSuggestions(e, err)) {
      err.println("Try '" + commandPath(cl) + " --help'.");
    }
    err.flush();
    return ExitCode.BAD_INPUT;
  }

  private static int onExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parseResult) {
    PrintWriter err = cl.getErr();
    BadInputException bad = badInput(e);
    if (bad != null) {
      err.println(commandPath(cl) + ": " + oneLine(bad.getMessage()));
      if (debug()) {
        e.printStackTrace(err);
      }
      err.flush();
      return ExitCode.BAD_INPUT;
    }
    String message = describe(e);
    err.println(commandPath(cl) + ": failed: " + oneLine(message));
    if (debug() || e.getMessage() == null) {
      e.printStackTrace(err);
    } else {
      err.println("(set BENCHLAKE_DEBUG=1 for the stack trace)");
    }
    err.flush();
    return ExitCode.FAILURE;
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
   * newline).
   */
  static String oneLine(String message) {
    return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", " ");
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
