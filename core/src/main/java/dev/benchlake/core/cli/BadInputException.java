package dev.benchlake.core.cli;

/**
 * Bad usage or bad input: the user can fix it. Its message is printed as one line to stderr, with
 * no stack trace, and the process exits with {@link ExitCode#BAD_INPUT}. The message should name
 * the file (and line) and the cause.
 */
public class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }

  public BadInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
