package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.warehouse.cli.RunsCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * bin/benchlake builds only the command it runs ({@link RootCommand#forArgs}): what a user sees of
 * the others (the usage, the errors of a missing or mistyped command) must be exactly what the
 * full command line shows.
 */
class RootCommandTest {
  /** Exit code, stdout and stderr of one execution. */
  record Outcome(int code, String out, String err) {}

  static Outcome run(CommandLine cl, String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    cl.setOut(new PrintWriter(out));
    cl.setErr(new PrintWriter(err));
    int code = cl.execute(args);
    return new Outcome(code, out.toString(), err.toString());
  }

  @Test
  void whatTheListedCommandsShowIsWhatTheBuiltOnesShow() {
    // The root's usage, its errors (no command, a typo: suggestions), help, a command's own usage and errors.
    List<List<String>> cases = List.of(List.of("--help"), List.of(), List.of("rnus"), List.of("help"),
        List.of("help", "ingest"), List.of("study", "--help"), List.of("--version"), List.of("export", "--table"));
    for (List<String> words : cases) {
      String[] args = words.toArray(String[]::new);
      Outcome full = run(Benchlake.commandLine(), args);
      Outcome light = run(RootCommand.forArgs(Benchlake.commands(), args), args);
      assertThat(light).as("benchlake %s", words).isEqualTo(full);
      assertThat(full.out() + full.err()).as("benchlake %s says something", words).isNotBlank();
    }
    assertThat(run(Benchlake.commandLine(), "--help").out()).contains("runs", "ingest", "compare", "batch", "loadgen");
  }

  @Test
  void onlyTheNamedCommandIsBuilt() {
    CommandLine cl = RootCommand.forArgs(Benchlake.commands(), new String[] {"-V", "runs", "--warehouse", "compare"});
    Map<String, CommandLine> subcommands = cl.getSubcommands();
    assertThat(subcommands.get("runs").<Object>getCommand()).isInstanceOf(RunsCommand.class);
    assertThat(subcommands.get("runs").getCommandSpec().findOption("--warehouse")).isNotNull();
    for (Subcommand command : Benchlake.commands()) {
      String name = command.names().get(0);
      if (!name.equals("runs")) {
        assertThat(subcommands.get(name).<Object>getCommand()).as(name).isNotInstanceOf(command.type());
        assertThat(subcommands.get(name).getCommandSpec().options()).as(name).isEmpty();
      }
    }
    // help COMMAND prints COMMAND's usage: everything is built.
    CommandLine help = RootCommand.forArgs(Benchlake.commands(), new String[] {"help", "runs"});
    for (Subcommand command : Benchlake.commands()) {
      assertThat(help.getSubcommands().get(command.names().get(0)).<Object>getCommand()).isInstanceOf(command.type());
    }
  }

  @Test
  void aListedCommandCannotRun() {
    CommandLine listed = Benchlake.commands().get(0).listing();
    assertThatThrownBy(() -> ((Runnable) listed.<Object>getCommand()).run()).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("only listed");
  }

  @Test
  void theCommandWordIsTheFirstThatIsNotAnOption() {
    assertThat(RootCommand.commandWord(new String[] {"-hV", "--version", "runs", "--json"})).isEqualTo("runs");
    assertThat(RootCommand.commandWord(new String[] {"--help"})).isNull();
    assertThat(RootCommand.commandWord(new String[0])).isNull();
  }

  /**
   * No --help promises a verdict: whether a step is decided depends on the data (issue 26: the
   * quickstart's said "5 lets the run-level test conclude", which nothing guarantees).
   */
  @Test
  void noHelpPromisesThatATestWillConclude() {
    for (Subcommand command : Benchlake.commands()) {
      List<String> names = new java.util.ArrayList<>(List.of(command.names().get(0).split(" ")));
      names.add("--help");
      Outcome help = run(Benchlake.commandLine(), names.toArray(String[]::new));
      assertThat(help.out()).as("benchlake %s", names).isNotBlank()
          .doesNotContainIgnoringCase("conclude").doesNotContainIgnoringCase("lets the run-level test");
    }
  }
}
