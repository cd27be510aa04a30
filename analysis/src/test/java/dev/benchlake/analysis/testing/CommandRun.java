package dev.benchlake.analysis.testing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import dev.benchlake.core.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import picocli.CommandLine;

/**
 * One execution of a picocli command through {@link Cli#commandLine}, as the launcher runs it:
 * its exit code and what it wrote to stdout and stderr.
 */
public record CommandRun(int exitCode, String stdout, String stderr) {
  public static CommandRun of(Object command, List<String> args) {
    CommandLine cl = Cli.commandLine(command);
    StringWriter stdout = new StringWriter();
    StringWriter stderr = new StringWriter();
    cl.setOut(new PrintWriter(stdout));
    cl.setErr(new PrintWriter(stderr));
    int code = cl.execute(args.toArray(String[]::new));
    return new CommandRun(code, stdout.toString(), stderr.toString());
  }

  /** Exit code 2 and the message on stderr, without a stack trace. */
  public void assertBadInput(String message) {
    assertThat(exitCode).as(stderr).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(stderr).contains(message).doesNotContain("at dev.benchlake");
  }
}
