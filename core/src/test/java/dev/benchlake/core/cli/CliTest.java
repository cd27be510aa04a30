package dev.benchlake.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

class CliTest {
  @Command(name = "demo", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class)
  static class Demo implements Callable<Integer> {
    @Option(names = "--what", required = true)
    String what;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      switch (what) {
        case "bad" -> throw new BadInputException("file x.csv line 3: not a number");
        case "wrapped" -> throw new RuntimeException("job aborted", new BadInputException("line 7: bad"));
        case "boom" -> throw new IllegalStateException("disk full");
        case "secret" -> throw new IllegalStateException("cannot open wasbs://u:CANARY-5@c.blob.core.windows.net/x",
            new BadInputException("PGPASSWORD=CANARY-5 is wrong"));
        case "full" -> throw new RuntimeException("[TASK_WRITE_FAILED] Task failed while writing rows to file:/wh/tasks",
            new java.io.UncheckedIOException(new java.io.IOException("No space left on device")));
        case "escape" -> {
          // A step name that would retitle the terminal (OSC 0 … BEL), recolour it (CSI 31m), overwrite
          // the line (CR) and send C1's CSI: printed on both streams, and in an error line.
          spec.commandLine().getOut().println("step " + HOSTILE);
          spec.commandLine().getOut().printf(java.util.Locale.ROOT, "%s|%c%n", HOSTILE, '\u0007');
          spec.commandLine().getErr().print(HOSTILE.toCharArray());
          spec.commandLine().getErr().println();
          throw new BadInputException("step " + HOSTILE + " is bad");
        }
        // Hadoop's local file system's FSError: an Error, which picocli hands to no handler.
        case "fserror" -> throw new Error("java.io.IOException: No space left on device",
            new java.io.IOException("No space left on device"));
        case "error" -> throw new AssertionError("a bug");
        case "multiline" -> throw new BadInputException("mapping.yaml: not a valid mapping: while scanning\n in 'reader', line 2\n    x\n    ^\n");
        default -> {
          return ExitCode.OK;
        }
      }
    }
  }

  static final String HOSTILE = "n\u001b]0;pwned\u0007\u001b[31mred\rX\u009b2J\u007f\tY";

  private record Outcome(int code, String err, String out) {
    Outcome(int code, String err) {
      this(code, err, "");
    }
  }

  private static Outcome run(String... args) {
    StringWriter err = new StringWriter();
    StringWriter out = new StringWriter();
    CommandLine cl = Cli.commandLine(new Demo());
    cl.setErr(new PrintWriter(err));
    cl.setOut(new PrintWriter(out));
    return new Outcome(cl.execute(args), err.toString(), out.toString());
  }

  /**
   * Whatever a command prints on its out and err, and its error line, reaches the terminal with every
   * control character escaped but the line ends (dev.benchlake.core.TerminalText): print, printf,
   * a char array, an exception's message.
   */
  @Test
  void everyLineACommandPrintsEscapesControlCharacters() {
    Outcome o = run("--what", "escape");
    // A stream keeps its layout characters (newline, tab); the error line is one line first (its CR a blank).
    String shown = "n\\u001b]0;pwned\\u0007\\u001b[31mred\\rX\\u009b2J\\u007f\tY";
    assertThat(o.out()).isEqualTo("step " + shown + "\n" + shown + "|\\u0007\n");
    assertThat(o.err()).isEqualTo(shown + "\ndemo: step " + shown.replace("\\r", " ") + " is bad\n");
    assertThat(o.code()).isEqualTo(ExitCode.BAD_INPUT);
  }

  @Test
  void badInputIsExitTwoWithOneLine() {
    Outcome o = run("--what", "bad");
    assertThat(o.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(o.err()).isEqualTo("demo: file x.csv line 3: not a number" + System.lineSeparator());
  }

  @Test
  void badInputWrappedBySparkIsStillExitTwo() {
    Outcome o = run("--what", "wrapped");
    assertThat(o.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(o.err()).contains("line 7: bad").doesNotContain("at dev.benchlake");
  }

  @Test
  void unknownOptionIsExitTwo() {
    Outcome o = run("--what", "ok", "--wat");
    assertThat(o.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(o.err()).contains("Unknown option: '--wat'");
  }

  /** A library's multi-line message (a YAML parser's caret) still makes one line on stderr. */
  @Test
  void aMultiLineMessageIsPrintedOnOneLine() {
    Outcome o = run("--what", "multiline");
    assertThat(o.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(o.err()).isEqualTo("demo: mapping.yaml: not a valid mapping: while scanning in 'reader', line 2 x ^"
        + System.lineSeparator());
  }

  @Test
  void runtimeFailureIsExitOneWithoutAStackTrace() {
    Outcome o = run("--what", "boom");
    assertThat(o.code()).isEqualTo(ExitCode.FAILURE);
    assertThat(o.err()).isEqualTo("demo: failed: IllegalStateException: disk full (set BENCHLAKE_DEBUG=1 for the stack trace)"
        + System.lineSeparator());
  }

  /** A full disk, however deep in a library's exceptions: one line, the cause and what to do. */
  @Test
  void aFullDiskIsOneLineWithTheNextStep() {
    Outcome o = run("--what", "full");
    assertThat(o.code()).isEqualTo(ExitCode.FAILURE);
    assertThat(o.err()).isEqualTo("demo: failed: No space left on device; free some space and run it again"
        + System.lineSeparator());
  }

  /**
   * A full disk under Delta's log commit comes as an Error with the IOException as its cause (issue
   * 44: 96 lines of stack, out of {@code main}): one line, exit 1. An Error of any other kind is a
   * bug and goes on as it was.
   */
  @Test
  void anErrorThatIsAFailedWriteIsOneLineToo() {
    Outcome o = run("--what", "fserror");
    assertThat(o.code()).isEqualTo(ExitCode.FAILURE);
    assertThat(o.err()).isEqualTo("demo: failed: No space left on device; free some space and run it again"
        + System.lineSeparator());
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> run("--what", "error")).isInstanceOf(AssertionError.class)
        .hasMessage("a bug");
  }

  @Test
  void versionWorks() {
    StringWriter out = new StringWriter();
    CommandLine cl = Cli.commandLine(new Demo());
    cl.setOut(new PrintWriter(out));
    assertThat(cl.execute("--version")).isZero();
    assertThat(out.toString()).startsWith("benchlake ");
  }

  @Test
  void noErrorLineRepeatsASecret() {
    Outcome bad = run("--what", "secret");
    assertThat(bad.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(bad.err()).doesNotContain("CANARY-5").contains("PGPASSWORD=" + dev.benchlake.core.redaction.Redaction.MARKER);
    Outcome unknown = run("--what", "x", "--pgsql-password=CANARY-5");
    assertThat(unknown.code()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(unknown.err()).doesNotContain("CANARY-5").contains("--pgsql-password=");
  }
}
