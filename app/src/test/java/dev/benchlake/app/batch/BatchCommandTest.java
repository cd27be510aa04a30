package dev.benchlake.app.batch;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.cli.Cli;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code benchlake batch} on stand-in commands: what runs, in which order, and what a failure does. */
class BatchCommandTest {
  /** Every command the batch ran, as "name args…". */
  final List<String> ran = new ArrayList<>();

  @TempDir
  Path tmp;

  /** A stand-in: {@code echo WORDS…} prints them; {@code fail CODE} exits with CODE. */
  @Command(name = "root", subcommands = {Echo.class, Fail.class})
  static final class Root implements Runnable {
    @Override
    public void run() {}
  }

  @Command(name = "echo")
  static final class Echo implements Callable<Integer> {
    @Parameters
    List<String> words = new ArrayList<>();
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
      spec.commandLine().getOut().println(String.join("|", words));
      return 0;
    }
  }

  @Command(name = "fail")
  static final class Fail implements Callable<Integer> {
    @Parameters
    int code;

    @Override
    public Integer call() {
      return code;
    }
  }

  record Result(int exitCode, String out, String err) {}

  private Result batch(String stdin, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cl = Cli.commandLine(new BatchCommand(() -> {
      CommandLine root = Cli.commandLine(new Root());
      root.setExecutionStrategy(parsed -> {
        ran.add(String.join(" ", parsed.originalArgs()));
        return new CommandLine.RunLast().execute(parsed);
      });
      return root;
    }, new ByteArrayInputStream(stdin.getBytes(StandardCharsets.UTF_8))));
    cl.setOut(new PrintWriter(out, true));
    cl.setErr(new PrintWriter(err, true));
    return new Result(cl.execute(args), out.toString(), err.toString());
  }

  @Test
  void runsEveryLineInOrderSkippingCommentsAndBlankLines() {
    Result r = batch("# a comment\necho 'a b' c\n\n   \nbenchlake echo d # the rest\n", "-");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(ran).containsExactly("echo a b c", "echo d");
    assertThat(r.out()).isEqualTo("a b|c\nd\n");
    assertThat(r.err()).contains("batch: line 2: echo 'a b' c", "batch: line 5: benchlake echo d");
  }

  @Test
  void stopsAtTheFirstFailureWithItsLineAndExitCode() {
    Result r = batch("echo one\nfail 3\necho never\n");
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(ran).containsExactly("echo one", "fail 3");
    assertThat(r.err()).contains("batch: line 2: exit code 3");
  }

  @Test
  void keepGoingRunsEverythingAndExitsWithTheFirstFailure() {
    Result r = batch("fail 3\necho two\nfail 1\n", "--keep-going");
    assertThat(r.exitCode()).isEqualTo(3);
    assertThat(ran).containsExactly("fail 3", "echo two", "fail 1");
    assertThat(r.err()).contains("batch: line 1: exit code 3", "batch: line 3: exit code 1");
  }

  @Test
  void anUnknownCommandIsItsBadUsageExitCode() {
    Result r = batch("nope --x\necho never\n");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(ran).isEmpty();
  }

  @Test
  void aLineThatDoesNotParseFailsBeforeAnythingRuns() throws Exception {
    Path file = tmp.resolve("cmds.txt");
    Files.writeString(file, "echo first\necho 'open\n");
    Result r = batch("", file.toString());
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(ran).isEmpty();
    assertThat(r.err().strip()).doesNotContain("\n").contains(file + ": line 2: unterminated '");
    assertThat(batch("batch other.txt\n").err()).contains("stdin: line 1: a batch cannot run a batch");
    assertThat(batch("", tmp.resolve("missing.txt").toString()).exitCode()).isEqualTo(2);
  }

  @Test
  void aBadLineAnywhereFailsTheBatchBeforeTheFirstLineRuns() {
    // Line 1 is fine; line 2's value does not convert, line 3 names no command: nothing runs, and
    // each bad line is named on a line of its own, then their count.
    Result r = batch("echo first\nfail notANumber\nnope\n");
    assertThat(r.exitCode()).isEqualTo(2);
    assertThat(ran).isEmpty();
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip().lines().toList()).hasSize(3)
        .anySatisfy(l -> assertThat(l).contains("stdin: line 2: ", "notANumber"))
        .anySatisfy(l -> assertThat(l).contains("stdin: line 3: ", "nope"))
        .anySatisfy(l -> assertThat(l).contains("stdin: 2 lines are bad input", "nothing was run"))
        .noneSatisfy(l -> assertThat(l).contains("batch: line 1"));
    // One bad line is one line.
    assertThat(batch("echo first\nfail notANumber\n").err().strip()).doesNotContain("\n")
        .contains("stdin: line 2: ", "notANumber", "nothing was run");
    // --keep-going runs on after a failure, not after a typo.
    Result kept = batch("echo first\necho --unknown-option\n", "--keep-going");
    assertThat(kept.exitCode()).isEqualTo(2);
    assertThat(ran).isEmpty();
    assertThat(kept.err()).contains("stdin: line 2: ", "--unknown-option");
  }

  @Test
  void theEchoOfALineShowsNoSecretValue() {
    Result r = batch("echo 'jdbc:postgresql://h/db?password=CANARY-9' 'fs.azure.account.key.a=CANARY 9' # PGPASSWORD=CANARY-9\n"
        + "echo step=primary-key-lookup\n");
    assertThat(r.exitCode()).as(r.err()).isZero();
    assertThat(r.err()).doesNotContain("CANARY-9")
        .contains("batch: line 1: echo jdbc:postgresql://h/db?password=*********(redacted) "
            + "fs.azure.account.key.a=*********(redacted)")
        .contains("batch: line 2: echo step=primary-key-lookup");
  }

  @Test
  void helpPrintsNoPicocliWarning() {
    java.io.PrintStream saved = System.err;
    java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
    System.setErr(new java.io.PrintStream(captured, true, StandardCharsets.UTF_8));
    Result r;
    try {
      r = batch("", "--help");
    } finally {
      System.setErr(saved);
    }
    assertThat(r.exitCode()).isZero();
    assertThat(r.out()).contains("Example: printf '%s\\n' 'ingest");
    assertThat(r.err()).isEmpty();
    assertThat(captured.toString(StandardCharsets.UTF_8)).isEmpty();
  }
}
