package dev.benchlake.ingest.cli;

import dev.benchlake.core.cli.Cli;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** A command run in-process with its stdout and stderr captured. */
record CliRun(int exitCode, String out, String err) {
  static CliRun of(Object command, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Cli.commandLine(command);
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    int code = cl.execute(args);
    return new CliRun(code, out.toString(), err.toString());
  }
}
