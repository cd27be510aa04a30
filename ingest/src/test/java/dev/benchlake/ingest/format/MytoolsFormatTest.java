package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestTestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The mytools format on the committed tree (real sysbench 1.0.20 on embedded PostgreSQL 14 and 16,
 * see the fixtures' README): planning, labels, the parsers' verdicts, without Spark.
 */
class MytoolsFormatTest {
  private static final Path TREE = IngestTestSupport.fixture("mytools");
  private static final Path PG14 = TREE.resolve("r1/x.pg1424_embedded.default.pk1");
  /**
   * The folder's steps in its files' order: all_small.sh's first point-query.pre ran at dop 2, the
   * rest at dop 1 (the run's dop), so only that one says its dop.
   */
  private static final List<String> STEPS = List.of("point-query.pre_range=100", "point-query.pre_range=100_dop=2",
      "point-query_range=100", "random-points_range=10", "read-only_range=10", "update-index_range=100");

  @TempDir
  Path tmp;

  private final MytoolsFormat format = new MytoolsFormat();

  @Test
  void aFolderIsOneRunWithTheFoldersLabelsAndEveryOutputAStep() throws IOException {
    SourceFormat.Planned planned = format.planAll(LocalPaths.of(PG14), IngestRequest.of(PG14).planContext());
    SourcePlan plan = planned.sources().get(0);
    assertThat(planned.sources()).hasSize(1);
    assertThat(plan.format()).isEqualTo("mytools");
    assertThat(plan.folder()).isEqualTo(LocalPaths.of(PG14).get(0));
    assertThat(plan.run().labels()).containsExactlyInAnyOrderEntriesOf(Map.of("dbms", "pg", "version", "1424",
        "build", "embedded", "config", "default", "pk", "1"));
    assertThat(plan.run().dimensions()).containsEntry("db_version", "14.24").containsEntry("db_major", "14")
        .containsEntry("workload", "sysbench").as("the dop of five of its six outputs").containsEntry("clients", "1");
    // Each step's outputs, then the summaries that check them (five per test; none names a dop).
    List<String> names = plan.files().stream().map(f -> f.path().getName()).toList();
    assertThat(names).hasSize(6 + 25).startsWith("sb.o.point-query.pre.range100.pk1.dop1",
        "sb.o.point-query.pre.range100.pk1.dop2", "sb.r.qps.point-query.pre.range100.pk1");
    assertThat(plan.files()).filteredOn(f -> !f.check()).extracting(f -> f.path().getName()).containsExactly(
        "sb.o.point-query.pre.range100.pk1.dop1", "sb.o.point-query.pre.range100.pk1.dop2",
        "sb.o.point-query.range100.pk1.dop1", "sb.o.random-points.range10.pk1.dop1", "sb.o.read-only.range10.pk1.dop1",
        "sb.o.update-index.range100.pk1.dop1");
    assertThat(plan.files()).filteredOn(SourcePlan.PlannedFile::check).extracting(f -> f.path().getName())
        .allMatch(n -> n.startsWith("sb.r."));
    assertThat(plan.run().metadata()).containsEntry("mytools_folder", "x.pg1424_embedded.default.pk1")
        .containsEntry("dop", 1);
    assertThat(steps(plan)).containsExactlyElementsOf(STEPS);
    // Spark ships the parsers to its executors.
    for (SourcePlan.PlannedFile file : plan.files()) {
      try (java.io.ObjectOutputStream out = new java.io.ObjectOutputStream(java.io.OutputStream.nullOutputStream())) {
        out.writeObject(file.documentParser());
      }
    }

    assertThat(planned.notResults()).extracting(NotResult::reason).contains("vmstat capture", "prepare log",
        "vmstat capture of the prepare step", "server statistics (pg_stat_*)",
        "server configuration (differences from the defaults)");
    assertThat(planned.notResults()).hasSize(fileCount(PG14) - 6 - 25);
  }

  @Test
  void everyLineOfTheRealTreeIsAcceptedAndStepsAreNamedAsTheStudyNamesThem() throws IOException {
    for (Path dir : List.of(PG14, TREE.resolve("r2/x.pg1615_embedded.default.pk1"))) {
      String rendered = Parsing.render(format, IngestRequest.of(dir), dir);
      assertThat(rendered).doesNotContain(" reject ");
      assertThat(rendered.lines().filter(l -> l.contains(" metric step=") && l.contains(" qps="))
          .map(l -> l.replaceAll(".* step=(\\S+) .*", "$1")).toList()).containsExactlyElementsOf(STEPS);
      // Each step's facts are its own: the dop-2 output's threads do not overwrite the others'.
      assertThat(rendered).contains("fact point-query.pre_range=100_dop=2/option.threads=2\n",
          "fact point-query.pre_range=100/option.threads=1\n", "fact update-index_range=100/sysbench_version=1.0.20\n");
      assertThat(rendered.lines().filter(l -> l.startsWith("fact ")).toList()).allMatch(l -> l.contains("/"));
    }
  }

  @Test
  void theEchoedCommandIsMetadataAndKeepsNoCredentials() throws IOException {
    Path raw = PG14.resolve("sb.o.point-query.range100.pk1.dop1");
    RenderingSink sink = new RenderingSink();
    new MytoolsOutputParser("point-query_range=100").parse(Parsing.lines(raw), sink);
    assertThat(sink.text()).startsWith("fact option.db-driver=pgsql\n").contains("L1 metadata\n", "fact cpus=",
        "L2 metadata\n", "fact option.threads=1\n", "fact option.table-size=10000\n", "fact option.tables=2\n",
        "fact option.script=oltp_point_select.lua\n", "fact option.rand-type=uniform\n",
        "fact sysbench_version=1.0.20\n", "metric step=point-query_range=100 interval=run qps=");
    assertThat(Files.readString(raw)).contains("--pgsql-password=pw");
    assertThat(sink.text()).doesNotContain("password").doesNotContain("pgsql-user").doesNotContain(" reject ");

    // Even a garbled command line is metadata: a reject would keep its text, password and all.
    List<String> garbled = new java.util.ArrayList<>(Parsing.lines(raw));
    garbled.set(0, "\u0000bin/sysb --pgsql-password=secret ru");
    RenderingSink garbledSink = new RenderingSink();
    new MytoolsOutputParser("point-query_range=100").parse(garbled, garbledSink);
    assertThat(garbledSink.text()).contains("L1 metadata\n").doesNotContain("secret").doesNotContain(" reject ");
    // Without run.sh's two lines it is plain sysbench output.
    RenderingSink plain = new RenderingSink();
    new MytoolsOutputParser("s").parse(Parsing.lines(raw).subList(2, Parsing.lines(raw).size()), plain);
    assertThat(plain.text()).startsWith("fact sysbench_version=1.0.20\nL1 metadata\n").doesNotContain(" reject ");
  }

  @Test
  void aTamperedSummaryIsARejectWithItsReason() throws IOException {
    Path copy = copyFolder(PG14);
    Path qps = copy.resolve("sb.r.qps.point-query.range100.pk1");
    String line = Files.readString(qps).strip();
    String tampered = (Long.parseLong(line.split("\t")[0]) + 1000) + "\t" + line.split("\t", 2)[1];
    Files.writeString(qps, tampered + "\n", StandardCharsets.UTF_8);
    Files.writeString(copy.resolve("sb.r.rtmax.read-only.range10.pk1"), "0.5\tpgsql read-only range=100\n");

    String rendered = Parsing.render(format, IngestRequest.of(copy), copy);
    String original = Files.readString(PG14.resolve("sb.r.qps.point-query.range100.pk1")).split("\t")[0];
    assertThat(rendered.lines().filter(l -> l.contains(" reject ")).toList()).containsExactly(
        "L1 reject '" + tampered + "': disagrees with the raw sysbench output: qps " + tampered.split("\t")[0]
            + " for dop 1 disagrees with sb.o.point-query.range100.pk1.dop1, which gives " + original + " [mismatch qps]",
        "L1 reject '0.5\tpgsql read-only range=100': it is labelled read-only range=100 but its name says read-only"
            + " range=10 [mismatch label]");
  }

  @Test
  void aFailedRunAndASummaryWithoutOutputsAreListedNotIngested() throws IOException {
    Path copy = copyFolder(PG14);
    Path failed = copy.resolve("sb.o.update-index.range100.pk1.dop1");
    Files.writeString(failed, Files.readAllLines(failed).get(0) + "\n2 CPUs\nsysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"
        + "\nFATAL: Connection to database failed: connection refused\n", StandardCharsets.UTF_8);
    SourceFormat.Planned planned = format.planAll(LocalPaths.of(copy), IngestRequest.of(copy).planContext());
    assertThat(planned.sources()).singleElement().satisfies(p -> assertThat(p.files()).hasSize(5 + 20));
    assertThat(planned.notResults()).contains(new NotResult(failed.toString(),
        "sysbench output without results: FATAL: Connection to database failed: connection refused"));
    assertThat(planned.notResults()).contains(new NotResult(copy.resolve("sb.r.qps.update-index.range100.pk1").toString(),
        "summary without a raw output to check it against (no sb.o.update-index.range100.pk1.dop<N> with figures beside it)"));
  }

  @Test
  void aNamedResultFileBringsItsFoldersRunAndOthersAreListed() throws IOException {
    Path summary = PG14.resolve("sb.r.trx.read-only.range10.pk1");
    Path vmstat = PG14.resolve("sb.vm.read-only.range10.pk1.dop1");
    SourceFormat.Planned planned = format.planAll(LocalPaths.of(summary, vmstat), IngestRequest.of(summary).planContext());
    SourceFormat.Planned whole = format.planAll(LocalPaths.of(PG14), IngestRequest.of(PG14).planContext());
    // The same run, and so the same content, as the folder's: ingesting both lands it once.
    assertThat(planned.sources()).singleElement().satisfies(p ->
        assertThat(p.files()).extracting(SourcePlan.PlannedFile::path)
            .containsExactlyElementsOf(whole.sources().get(0).files().stream().map(SourcePlan.PlannedFile::path).toList()));
    assertThat(planned.notResults()).containsExactly(new NotResult(vmstat.toString(), "vmstat capture"));

    assertThatThrownBy(() -> format.planAll(LocalPaths.of(vmstat), IngestRequest.of(vmstat).planContext()))
        .isInstanceOf(BadInputException.class).hasMessageContaining(": no sysbench results in it");
    Path elsewhere = Files.writeString(tmp.resolve("sb.o.point-query.range100.pk1.dop1"), "x\n");
    assertThatThrownBy(() -> format.planAll(LocalPaths.of(elsewhere), IngestRequest.of(elsewhere).planContext()))
        .isInstanceOf(BadInputException.class).hasMessageContaining("not in a mytools result folder");
  }

  @Test
  void theRunsDopIsTheMostCommonAndOnlyOtherDopsAndTwiceNamedStepsSaySo() throws IOException {
    Path copy = copyFolder(PG14);
    // run.sh with a thread list "1 4" for two tests, and two tests at dop 2 only.
    for (String test : List.of("point-query.range100.pk1", "read-only.range10.pk1")) {
      Files.copy(copy.resolve("sb.o." + test + ".dop1"), copy.resolve("sb.o." + test + ".dop4"));
    }
    Files.delete(copy.resolve("sb.o.point-query.pre.range100.pk1.dop1"));
    Files.delete(copy.resolve("sb.o.random-points.range10.pk1.dop1"));
    Files.delete(copy.resolve("sb.o.update-index.range100.pk1.dop1"));
    Files.copy(copy.resolve("sb.o.point-query.pre.range100.pk1.dop2"), copy.resolve("sb.o.update-index.range100.pk1.dop2"));
    // A range written with a leading zero names the same step as another output: it is listed, not read.
    // Outputs at dop 1: 3 (this one too), at 2 and at 4: 2 each.
    Files.copy(copy.resolve("sb.o.read-only.range10.pk1.dop1"), copy.resolve("sb.o.read-only.range010.pk1.dop1"));
    SourceFormat.Planned planned = format.planAll(LocalPaths.of(copy), IngestRequest.of(copy).planContext());
    SourcePlan plan = planned.sources().get(0);
    assertThat(plan.run().dimensions()).containsEntry("clients", "1");
    assertThat(steps(plan)).containsExactly("point-query.pre_range=100_dop=2", "point-query_range=100", "point-query_range=100_dop=4",
            "read-only_range=10", "read-only_range=10_dop=4", "update-index_range=100_dop=2");
    assertThat(planned.notResults()).contains(new NotResult(copy.resolve("sb.o.read-only.range10.pk1.dop1").toString(),
        "a second output of step read-only_range=10 (sb.o.read-only.range010.pk1.dop1 is read)"));
  }

  @Test
  void theFolderNotTheContentIsSniffed() {
    assertThat(format.sniff(new Probe(PG14.resolve("conf.diff"), List.of("fsync = on"), false))).isPresent();
    assertThat(format.sniff(new Probe(tmp.resolve("conf.diff"), List.of("fsync = on"), false))).isEmpty();
    assertThat(MytoolsFormat.isResultFolder(PG14)).isTrue();
    assertThat(MytoolsFormat.isResultFolder(PG14.getParent())).isFalse();
  }

  /** The steps of a folder's run, from its metadata. */
  private static List<String> steps(SourcePlan plan) {
    return ((List<?>) plan.run().metadata().get("steps")).stream().map(e -> (String) ((Map<?, ?>) e).get("step")).toList();
  }

  private Path copyFolder(Path dir) throws IOException {
    Path copy = Files.createDirectories(tmp.resolve("copy").resolve(dir.getFileName()));
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    return copy;
  }

  private static int fileCount(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return (int) files.count();
    }
  }
}
