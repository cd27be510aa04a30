package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.format.MytoolsLayout.Folder;
import dev.benchlake.ingest.format.MytoolsLayout.RawFile;
import dev.benchlake.ingest.format.MytoolsLayout.SummaryFile;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The names of a mytools tree: folders, raw outputs, summaries, and what the rest is. */
class MytoolsLayoutTest {
  @Test
  void folderNamesGiveTheirLabels() {
    Folder pg = MytoolsLayout.folder("x.pg1622_o2nofp.cx10a.pk1").orElseThrow();
    assertThat(pg.labels()).containsExactly(Map.entry("dbms", "pg"), Map.entry("version", "1622"),
        Map.entry("build", "o2nofp"), Map.entry("config", "cx10a"), Map.entry("pk", "1"));
    assertThat(pg.postgresVersion()).contains("16.22");
    assertThat(MytoolsLayout.folder("x.pg181_o2nofp.cx10b_c24r64.pk0").orElseThrow().postgresVersion()).contains("18.1");

    // Older trees have no build; MySQL's digits are not split (8407 is 8.4.7, 8032 is 8.0.32).
    Folder old = MytoolsLayout.folder("x.pg151.x7.pk1").orElseThrow();
    assertThat(old.build()).isNull();
    assertThat(old.labels()).doesNotContainKey("build").containsEntry("config", "x7");
    Folder my = MytoolsLayout.folder("x.my8407_rel_o2nofp.cz12a_nocb_c24r64.pk0").orElseThrow();
    assertThat(my).isEqualTo(new Folder("my", "8407", "rel_o2nofp", "cz12a_nocb_c24r64", "0"));
    assertThat(my.postgresVersion()).isEmpty();
    assertThat(MytoolsLayout.folder("x.pg96.x7.pk1").orElseThrow().postgresVersion()).as("before 10: ambiguous").isEmpty();

    assertThat(MytoolsLayout.folder("x.pg1622_o2nofp.cx10a.pk2")).isEmpty();
    assertThat(MytoolsLayout.folder("y.pg1622_o2nofp.cx10a.pk1")).isEmpty();
    assertThat(MytoolsLayout.folder("x.pg1622_o2nofp.pk1")).as("no config").isEmpty();
    assertThat(MytoolsLayout.folder("x.postgres.cx10a.pk1")).as("no version digits").isEmpty();
  }

  @Test
  void rawOutputsAreStepsAndDops() {
    RawFile pre = MytoolsLayout.rawFile("sb.o.point-query.pre.range100.pk1.dop2").orElseThrow();
    assertThat(pre).isEqualTo(new RawFile("point-query.pre", 100, "1", 2));
    assertThat(pre.step()).isEqualTo("point-query.pre_range=100");
    assertThat(pre.suffix()).isEqualTo("point-query.pre.range100.pk1");
    assertThat(MytoolsLayout.rawFile("sb.o.read-only-count.range1000.pk0.dop16").orElseThrow().step())
        .isEqualTo("read-only-count_range=1000");

    assertThat(MytoolsLayout.rawFile("sb.o.pw.update-index.range100.pk1")).as("post-write log").isEmpty();
    assertThat(MytoolsLayout.rawFile("sb.o.pw.update-index.range100.pk1.dop1")).as("post-write, however named").isEmpty();
    assertThat(MytoolsLayout.rawFile("sb.o.scan.range100.pk1")).as("no dop").isEmpty();
    assertThat(MytoolsLayout.rawFile("sb.o.scan.range100.pk1.dop1.gz")).isEmpty();
    assertThat(MytoolsLayout.rawFile("sb.o.scan.range99999999999.pk1.dop1")).as("range beyond an int").isEmpty();
  }

  @Test
  void aFoldersRunHasTheDopMostOutputsShareAndOnlyOtherDopsAreNamed() {
    RawFile pre2 = MytoolsLayout.rawFile("sb.o.point-query.pre.range100.pk1.dop2").orElseThrow();
    RawFile pre1 = MytoolsLayout.rawFile("sb.o.point-query.pre.range100.pk1.dop1").orElseThrow();
    RawFile query1 = MytoolsLayout.rawFile("sb.o.point-query.range100.pk1.dop1").orElseThrow();
    RawFile write8 = MytoolsLayout.rawFile("sb.o.update-index.range100.pk0.dop8").orElseThrow();
    assertThat(MytoolsLayout.runDop(List.of(pre2, pre1, query1))).hasValue(1);
    assertThat(MytoolsLayout.runDop(List.of(pre2, write8, pre1, query1, write8, write8))).hasValue(8);
    assertThat(MytoolsLayout.runDop(List.of(write8, pre2))).as("a tie: the lowest dop").hasValue(2);
    assertThat(MytoolsLayout.runDop(List.of())).isEmpty();

    assertThat(pre1.stepIn(1, "1")).as("the study's names stay as they were").isEqualTo("point-query.pre_range=100");
    assertThat(pre2.stepIn(1, "1")).isEqualTo("point-query.pre_range=100_dop=2");
    assertThat(write8.stepIn(8, "0")).isEqualTo("update-index_range=100");
    assertThat(write8.stepIn(1, "1")).as("a file whose pk is not its folder's").isEqualTo("update-index_range=100_dop=8_pk=0");
  }

  @Test
  void summariesNameMetricAndStep() {
    assertThat(MytoolsLayout.summaryFile("sb.r.qps.point-query.pre.range100.pk1"))
        .contains(new SummaryFile("qps", "point-query.pre", 100, "1"));
    assertThat(MytoolsLayout.summaryFile("sb.r.rt95.read-only.range10000.pk0").map(SummaryFile::suffix))
        .contains("read-only.range10000.pk0");
    assertThat(MytoolsLayout.summaryFile("sb.r.p99.read-only.range10.pk1")).as("not one of run.sh's five").isEmpty();
    assertThat(MytoolsLayout.summaryFile("sb.r.qps.read-only.range10.pk1.dop1")).isEqualTo(Optional.empty());
  }

  @Test
  void everythingElseSaysWhatItIs() {
    assertThat(MytoolsLayout.notResultReason("sb.vm.point-query.range100.pk1.dop1")).isEqualTo("vmstat capture");
    assertThat(MytoolsLayout.notResultReason("sb.io.point-query.range100.pk1.dop1")).isEqualTo("iostat capture");
    assertThat(MytoolsLayout.notResultReason("sb.prepare.o.point-query.pre.range100.pk1")).isEqualTo("prepare log");
    assertThat(MytoolsLayout.notResultReason("sb.prepare.vm.point-query.pre.range100.pk1"))
        .isEqualTo("vmstat capture of the prepare step");
    assertThat(MytoolsLayout.notResultReason("sb.o.pw.delete.range100.pk1")).startsWith("post-write log");
    assertThat(MytoolsLayout.notResultReason("conf.diff")).startsWith("server configuration");
    assertThat(MytoolsLayout.notResultReason("o.ini.cx10a")).isEqualTo("server start log");
    assertThat(MytoolsLayout.notResultReason("my.cnf")).isEqualTo("server configuration");
    assertThat(MytoolsLayout.notResultReason("notes.txt")).startsWith("not one of run.sh's result files");
  }
}
