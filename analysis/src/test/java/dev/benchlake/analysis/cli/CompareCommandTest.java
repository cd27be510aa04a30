package dev.benchlake.analysis.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.CompareFiles;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.analysis.testing.ReferenceCases;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@org.junit.jupiter.api.Tag("integration")
class CompareCommandTest extends SparkTestBase {
  private static Warehouse warehouse;

  @TempDir
  Path out;

  @BeforeAll
  static void writeWarehouse() {
    warehouse = ReferenceCases.warehouse(spark, ReferenceCases.named("two_steps"));
  }

  private CommandRun run(String... args) {
    return runInto(out, args);
  }

  private static CommandRun runInto(Path folder, String... args) {
    List<String> all = new ArrayList<>(List.of("--warehouse", warehouse.root(), "--out", folder.toString()));
    all.addAll(List.of(args));
    return CommandRun.of(new CompareCommand(), all);
  }

  @Test
  void writesBothReportsAndPrintsTheSummaryTable() throws Exception {
    CommandRun r = run("--baseline", "os=linux", "--candidate", "os=windows", "--threshold", "2ms", "--margin", "10%",
        "--correction", "bh", "--outliers", "iqr");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.OK);
    assertThat(r.stdout()).startsWith("| step | change (θ) | 95% interval | verdict | runs | runs needed |").contains("| `read` |").contains("**slower**")
        .doesNotContain("## Methods");
    String json = Files.readString(out.resolve(CompareFiles.JSON), StandardCharsets.UTF_8);
    assertThat(json).contains("\"margin\": 0.1").contains("\"correction\": \"bh\"").contains("\"outliers\": \"iqr:1.5\"")
        .contains("\"threshold_s\": 0.002");
    assertThat(Files.readString(out.resolve(CompareFiles.MARKDOWN), StandardCharsets.UTF_8)).contains(r.stdout());
  }

  /** {@code --correction none} over two steps: what compare prints opens with the warning (issue 26 item 6). */
  @Test
  void withoutACorrectionThePrintedSummaryOpensWithTheWarning() throws Exception {
    CommandRun r = run("--baseline", "os=linux", "--candidate", "os=windows", "--correction", "none");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.OK);
    String warning = "> ⚠ Uncorrected (--correction none) over 2 steps: expect about α·N = 0.1 false calls where"
        + " nothing changed; none is meant for a single pre-registered step or family.\n\n";
    assertThat(r.stdout()).startsWith(warning + "| step | change (θ) |");
    assertThat(Files.readString(out.resolve(CompareFiles.MARKDOWN), StandardCharsets.UTF_8)).contains(warning);
    CommandRun one = run("--baseline", "os=linux", "--candidate", "os=windows", "--correction", "none", "--step", "read");
    assertThat(one.stdout()).as("one step: nothing to warn of").startsWith("| step | change (θ) |");
  }

  @Test
  void failOnRegressionExitsWithThree() {
    CommandRun r = run("--baseline", "os=linux", "--candidate", "os=windows", "--fail-on", "regression");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.REGRESSION);
    // Which steps made it exit 3, on stderr (issue 26 item 9): each slower step, with the change it rests on.
    assertThat(r.stderr().lines().filter(l -> l.startsWith("compare: --fail-on regression: step ")).toList())
        .isNotEmpty().allMatch(l -> l.matches("compare: --fail-on regression: step \\S+ is slower: \\+.* \\[.*\\]"));
    CommandRun onlyWrite = run("--baseline", "os=linux", "--candidate", "os=windows", "--step", "write", "--fail-on", "regression");
    assertThat(onlyWrite.exitCode()).as(onlyWrite.stderr()).isEqualTo(ExitCode.OK);
    assertThat(onlyWrite.stderr()).doesNotContain("--fail-on");
    assertThat(onlyWrite.stdout()).contains("`write`").doesNotContain("`read`");
  }

  @Test
  void failOnInconclusiveDemandsEvidenceOfNoRegression() {
    // write is inconclusive (4 vs 5 runs cannot decide a -2.6% change): no evidence it did not regress.
    CommandRun write = run("--baseline", "os=linux", "--candidate", "os=windows", "--step", "write", "--fail-on", "inconclusive");
    assertThat(write.exitCode()).as(write.stderr()).isEqualTo(ExitCode.REGRESSION);
    assertThat(write.stdout()).contains("**inconclusive**");
  }

  @Test
  void failOnNotEquivalentFailsOnAnyStepNotShownEquivalent() {
    CommandRun r = run("--baseline", "os=linux", "--candidate", "os=windows", "--step", "write", "--fail-on", "not-equivalent");
    assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.REGRESSION);
    CommandRun wide = run("--baseline", "os=linux", "--candidate", "os=windows", "--step", "write", "--margin", "40%",
        "--fail-on", "not-equivalent");
    assertThat(wide.exitCode()).as(wide.stderr() + wide.stdout()).isEqualTo(ExitCode.OK);
    assertThat(wide.stdout()).contains("**equivalent**");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--fail-on", "maybe").assertBadInput("not one of regression");
  }

  @Test
  void badInputExitsWithTwoAndOneClearLine() {
    run("--baseline", "os linux", "--candidate", "os=windows").assertBadInput("is not key=value");
    run("--baseline", "os=bsd", "--candidate", "os=windows").assertBadInput("the baseline selector 'os=bsd' matches no run");
    run("--baseline", "os!=bsd", "--candidate", "os=windows").assertBadInput("match both the baseline selector");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--step", "setup")
        .assertBadInput("step 'setup' has tasks in the baseline only");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--outliers", "iqr:-1").assertBadInput("outlier policy");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--margin", "150%").assertBadInput("--margin");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--alpha", "1.5").assertBadInput("--alpha");
    run("--baseline", "os=linux", "--candidate", "os=windows", "--threshold", "5").assertBadInput("is not a duration");
    run("--baseline", "os=linux").assertBadInput("Missing required option: '--candidate");
  }

  @Test
  void aMissingWarehouseIsBadInput() {
    CommandRun.of(new CompareCommand(), List.of("--warehouse", out.resolve("nothing").toString(), "--baseline", "a=b",
        "--candidate", "a=c", "--out", out.toString())).assertBadInput("no warehouse at");
  }

  /** {@code --out} on a read-only folder, or inside one: exit 2, one line, nothing written. */
  @Test
  void aReadOnlyOutputFolderIsOneLineAndExit2() throws Exception {
    try (HostileFolders.Folder readOnly = HostileFolders.readOnly(out, "ro")) {
      for (Path folder : new Path[] {readOnly.path(), readOnly.path().resolve("reports")}) {
        CommandRun r = runInto(folder, "--baseline", "os=linux", "--candidate", "os=windows");
        assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.BAD_INPUT);
        assertThat(r.stderr().lines().toList()).as(r.stderr()).singleElement().asString()
            .startsWith("compare: ").contains(folder.toString());
      }
      try (Stream<Path> left = Files.list(readOnly.path())) {
        assertThat(left).isEmpty();
      }
    }
  }

  /**
   * {@code --out} on a full disk (a 12 KiB tmpfs: the previous reports and one page free): exit 1,
   * one line naming the cause, the previous reports untouched, no temporary file left.
   */
  @Test
  void aFullDiskLeavesThePreviousReportsWhole() throws Exception {
    try (HostileFolders.Folder disk = HostileFolders.fullDisk(out, "small", 3 * 4096)) {
      Path folder = disk.path();
      Files.writeString(folder.resolve(CompareFiles.JSON), "{\"previous\": true}\n", StandardCharsets.UTF_8);
      Files.writeString(folder.resolve(CompareFiles.MARKDOWN), "# previous\n", StandardCharsets.UTF_8);
      CommandRun r = runInto(folder, "--baseline", "os=linux", "--candidate", "os=windows");
      assertThat(r.exitCode()).as(r.stderr()).isEqualTo(ExitCode.FAILURE);
      assertThat(r.stderr().lines().filter(l -> l.startsWith("compare: ")).toList()).as(r.stderr())
          .singleElement().asString().contains("No space left on device");
      assertThat(r.stderr()).doesNotContain("\tat ");
      assertThat(Files.readString(folder.resolve(CompareFiles.JSON), StandardCharsets.UTF_8))
          .isEqualTo("{\"previous\": true}\n");
      assertThat(Files.readString(folder.resolve(CompareFiles.MARKDOWN), StandardCharsets.UTF_8)).isEqualTo("# previous\n");
      try (Stream<Path> files = Files.list(folder)) {
        assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder(CompareFiles.JSON,
            CompareFiles.MARKDOWN);
      }
    }
  }
}
