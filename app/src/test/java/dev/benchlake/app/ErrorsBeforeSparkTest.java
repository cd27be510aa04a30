package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.warehouse.spark.NoSparkSession;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Errors a command can tell before Spark starts are told before it starts (issue 26: they took 10
 * to 27 s, the start of Spark first): a selector that matches no run, a side of compare whose runs
 * are summaries without tasks, a {@code --base} no run has, a {@code --pair-by} label the runs lack,
 * an input that is not there or of no known format, a warehouse path that is a file. Each is exit 2
 * and one line, with no Spark session built. The warehouse is a copy of 0.3.0's frozen one (this
 * build's format): PostgreSQL 14 and 17 runs labelled {@code campaign=compat}, a sysbench and a
 * pgbench output, and a mytools tree labelled {@code campaign=compat-mytools}.
 */
class ErrorsBeforeSparkTest {
  @TempDir
  Path tmp;

  private Path wh;
  private Path file;

  @BeforeEach
  void warehouse() throws Exception {
    wh = CompatFixtures.copy("0.3.0", "warehouse", tmp.resolve("wh"));
    file = Files.writeString(tmp.resolve("notes.txt"), "not a warehouse\n", StandardCharsets.UTF_8);
  }

  /** {@code WH}, {@code FILE} and {@code OUT} stand for the warehouse, a plain file and an output folder. */
  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    String compare = "compare --warehouse WH --out OUT ";
    cases.add(Arguments.of(compare + "--baseline nosuchlabel=x --candidate db_major=17",
        "the baseline selector 'nosuchlabel=x' matches no run in WH"));
    cases.add(Arguments.of(compare + "--baseline db_major=14 --candidate db_major=99",
        "the candidate selector 'db_major=99' matches no run in WH"));
    cases.add(Arguments.of(compare + "--baseline campaign=compat --candidate db_major=17",
        "match both the baseline selector 'campaign=compat' and the candidate selector 'db_major=17'"));
    // Sides of summaries only (0.3.0's mytools tree, sysbench and pgbench outputs): which side, why, and what reads them.
    cases.add(Arguments.of(compare + "--baseline campaign=compat --candidate campaign=compat-mytools",
        "the candidate runs ('campaign=compat-mytools': 24 runs, mytools) have no tasks, only summaries (step_metrics):"
            + " compare needs per-task latencies on both sides; for summaries use 'benchlake trend' (e.g. --by campaign"
            + " --base compat), or select runs with tasks (see 'benchlake runs')"));
    cases.add(Arguments.of(compare + "--baseline source_format=sysbench --candidate source_format=pgbench",
        "the baseline runs ('source_format=sysbench': 1 run, sysbench) have no tasks, only summaries (step_metrics);"
            + " the candidate runs ('source_format=pgbench': 1 run, pgbench) have no tasks, only summaries (step_metrics):"
            + " compare needs per-task latencies on both sides; for summaries use 'benchlake trend' (e.g. --by"
            + " source_format --base sysbench)"));
    // Runs that do not pair (issue 28 item 3): the label --pair-by names is not on them.
    cases.add(Arguments.of(compare + "--baseline db_major=14 --candidate db_major=17 --pair-by round",
        "--pair-by round: baseline run "));
    cases.add(Arguments.of(compare + "--baseline db_major=14 --candidate db_major=17 --pair-by round",
        "has no label 'round', so it cannot be paired; pair by a label every run carries"));
    String trend = "trend --warehouse WH --out OUT --by db_major ";
    cases.add(Arguments.of(trend + "--where nosuchlabel=x", "no run in WH matches --where 'nosuchlabel=x'"));
    cases.add(Arguments.of(trend + "--where campaign=compat --base 99",
        "--base 99 is not a value of db_major among the selected runs (values: 14, 17)"));
    cases.add(Arguments.of("trend --warehouse WH --out OUT --by nosuchlabel", "no selected run has a value for --by nosuchlabel"));
    cases.add(Arguments.of(trend + "--where campaign=compat --pair-by round", "--pair-by round: baseline run "));
    // Issue 29 item 4: values that are neither dates nor versions have no order of their own.
    cases.add(Arguments.of("trend --warehouse WH --out OUT --by source_format", "--by source_format has values that are"
        + " neither dates nor versions (loadgen, mytools, pgbench, …), so they have no order of their own: add --order-by"
        + " LABEL"));
    // Issue 47 item 5: names with a base are compared against it, but the gate needs a series.
    cases.add(Arguments.of("trend --warehouse WH --out OUT --by source_format --base loadgen --fail-on change-point",
        "--fail-on change-point needs the values of --by source_format in an order, and these are names: add"
            + " --order-by LABEL"));
    cases.add(Arguments.of("trend --warehouse WH --out OUT --by source_format --order-by nosuchlabel",
        "--order-by nosuchlabel: the runs of source_format"));
    cases.add(Arguments.of("ingest --warehouse WH /nonexistent/run", "/nonexistent/run: no such file or directory"));
    cases.add(Arguments.of("ingest --warehouse WH FILE", "FILE: cannot tell the format (first line 'not a warehouse'"));
    String isAFile = "FILE is a file, not a warehouse folder";
    cases.add(Arguments.of("runs --warehouse FILE", isAFile));
    cases.add(Arguments.of("export --warehouse FILE --table runs --out OUT", isAFile));
    cases.add(Arguments.of("rejects --warehouse FILE", isAFile));
    cases.add(Arguments.of("ingest --warehouse FILE WH", isAFile));
    cases.add(Arguments.of("compare --warehouse FILE --baseline a=1 --candidate a=2 --out OUT", isAFile));
    cases.add(Arguments.of("trend --warehouse FILE --by db_major --out OUT", isAFile));
    cases.add(Arguments.of("upgrade --warehouse FILE", isAFile));
    cases.add(Arguments.of("verify --warehouse FILE", isAFile));
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void oneLineExitTwoAndNoSparkSession(String command, String message) throws Exception {
    String[] args = command.split(" ");
    for (int i = 0; i < args.length; i++) {
      args[i] = args[i].replace("WH", wh.toString()).replace("FILE", file.toString()).replace("OUT", tmp.resolve("out").toString());
    }
    Map<Path, String> before = FileTrees.snapshot(tmp);
    CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args));

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(run.stderr().lines().toList()).as("one line").singleElement().asString()
        .startsWith("benchlake " + args[0] + ": ")
        .contains(message.replace("WH", wh.toString()).replace("FILE", file.toString()));
    assertThat(FileTrees.snapshot(tmp)).as("nothing written").isEqualTo(before);
  }
}
