package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestTestSupport;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * mytools' {@code sb.met.*} (an.sh's whole-machine figures) on the hand-written fixture folder
 * ({@code fixtures/mytools-met}, run.sh's layout; its sb.o files are the real tree's), without Spark:
 * each is a companion of its step's output, read into {@code machine_…} rows or typed rejects.
 */
class MytoolsMetTest {
  private static final Path FOLDER = IngestTestSupport.fixture("mytools-met").resolve("x.pg1424_embedded.default.pk1");

  private static Map<String, String> renderedCompanions() throws IOException {
    SourcePlan plan = new MytoolsFormat().plan(LocalPaths.of(FOLDER), IngestRequest.of(FOLDER).planContext()).get(0);
    Map<String, String> out = new LinkedHashMap<>();
    for (SourcePlan.PlannedFile file : plan.files()) {
      if (file.role() == SourcePlan.Role.COMPANION) {
        RenderingSink sink = new RenderingSink();
        Parsing.parse(file, sink);
        out.put(file.path().getName(), sink.text());
      }
    }
    return out;
  }

  @Test
  void eachOutputsMetIsACompanionOfItsStepWithMachineFiguresAndTheCpuTimeFromItsCpuCount() throws IOException {
    Map<String, String> met = renderedCompanions();
    assertThat(met.keySet()).containsExactly("sb.met.point-query.pre.range100.pk1.dop1",
        "sb.met.point-query.pre.range100.pk1.dop2", "sb.met.point-query.range100.pk1.dop1",
        "sb.met.random-points.range10.pk1.dop1", "sb.met.read-only.range10.pk1.dop1",
        "sb.met.update-index.range100.pk1.dop1");
    // cpu/o 0.010736 (%·s a query) on the sb.o's 2 CPUs: 0.010736 / 100 × 2 × 10⁶ = 214.72 µs.
    assertThat(met.get("sb.met.point-query.range100.pk1.dop1")).isEqualTo("""
        L1 metadata
        L2 metadata
        L3 metric step=point-query_range=100 interval=run machine_reads_per_s=12.5 1/s
        L3 metric step=point-query_range=100 interval=run machine_read_mib_per_s=0.4 MiB/s
        L3 metric step=point-query_range=100 interval=run machine_writes_per_s=80.0 1/s
        L3 metric step=point-query_range=100 interval=run machine_write_mib_per_s=2.5 MiB/s
        L3 metric step=point-query_range=100 interval=run machine_reads_per_op=0.002 count
        L3 metric step=point-query_range=100 interval=run machine_read_kib_per_op=0.064 KiB
        L3 metric step=point-query_range=100 interval=run machine_write_kib_per_op=0.41 KiB
        L4 metadata
        L5 metadata
        L6 metric step=point-query_range=100 interval=run machine_cs_per_s=45000.0 1/s
        L6 metric step=point-query_range=100 interval=run machine_cpu_busy_pct=67.1 %
        L6 metric step=point-query_range=100 interval=run machine_cs_per_op=7.2 count
        L6 metric step=point-query_range=100 interval=run machine_cpu_pct_s_per_op=0.010736 %·s
        L6 metric step=point-query_range=100 interval=run machine_cpu_us_per_op=214.72 us
        """);
    assertThat(met.get("sb.met.point-query.pre.range100.pk1.dop1")).as("an empty file").isEmpty();
    // The dop-2 output's step keeps its name; its sb.met is a vmstat capture: another tool's header.
    assertThat(met.get("sb.met.point-query.pre.range100.pk1.dop2")).startsWith("L1 reject 'procs ---")
        .contains("not an.sh's resource summary: its first line is not 'iostat, vmstat normalized by operation rate'"
            + " [header]\nL2 reject ' r  b   swpd", "not under a column header of an.sh's ('samp …') [unknown_line]")
        .doesNotContain(" metric ");
    assertThat(met.get("sb.met.read-only.range10.pk1.dop1")).contains(
        "L3 reject '305\t0.0\t0.0\t0.0\t0.0\t0.000\t0.000\t1500.00': 8 fields, but its header has 9 (samp r/s rMB/s"
            + " w/s wMB/s r/o rKB/o wKB/o o/s) [field_count]",
        "L6 metric step=read-only_range=10 interval=run machine_cs_per_op=8.0 count");
    assertThat(met.get("sb.met.random-points.range10.pk1.dop1")).contains(
        "': r/s '12.5x' is not a number [number_format r/s]", "': cpu/o 'NaN' is not a finite number [out_of_range cpu/o]")
        .doesNotContain(" metric ");
    assertThat(met.get("sb.met.update-index.range100.pk1.dop1")).contains(
        "': w/s '-3.0' is negative: an average of counters never is [out_of_range w/s]",
        "L6 reject '319\t45000\t67': 3 fields, but its header has 5 (samp cs/s cpu/s cs/o cpu/o) [field_count]")
        .doesNotContain(" metric ");
  }

  @Test
  void aMetWithoutAnOutputReadBesideItIsListedAsNotAResult() throws IOException {
    SourceFormat.Planned planned = new MytoolsFormat().planAll(LocalPaths.of(FOLDER),
        IngestRequest.of(FOLDER).planContext());
    assertThat(planned.notResults()).extracting(NotResult::reason).containsExactly(
        "resource summary (an.sh) without a sysbench output read beside it (sb.o.scan.range100.pk1.dop1 with figures)");
    // The companions are not in the source's content key: a folder ingested before they were read stays recognised.
    assertThat(planned.sources().get(0).files()).filteredOn(f -> f.role() == SourcePlan.Role.COMPANION).hasSize(6)
        .allMatch(f -> f.path().getName().startsWith("sb.met."));
  }

  @Test
  void anAnShOfDecember2020sLeadingBlankLineReadsAlikeAndItsEarlierTotalsAreRejectedNotGuessed() {
    RenderingSink current = new RenderingSink();
    new MytoolsMetParser("s", 4).parse(List.of("", MytoolsMetParser.TITLE, "samp\tcs/s\tcpu/s\tcs/o\tcpu/o",
        "10\t100\t50.0\t2.000\t0.000449"), current);
    assertThat(current.text()).startsWith("L1 metadata\nL2 metadata\nL3 metadata\n")
        .endsWith("L4 metric step=s interval=run machine_cpu_us_per_op=17.96 us\n");
    RenderingSink older = new RenderingSink();
    new MytoolsMetParser("s", 4).parse(List.of("", MytoolsMetParser.TOTALS_TITLE, "samp\tcs/s\tcpu/s\tcs/o\tMcpu/o"
        + "\twa.sec", "10\t100\t50.0\t2.000\t449.000\t0.0"), older);
    assertThat(older.text()).startsWith("L1 metadata\nL2 reject 'iostat, vmstat totals': an.sh's totals of before"
        + " December 2020 ('iostat, vmstat totals'), whose columns differ: not read [header]\n")
        .contains("L4 reject '10\t100", "not read [unknown_line]").doesNotContain(" metric ");
  }

  @Test
  void aSecondFiguresLineAnAshFailureAnUnknownColumnAndNoCpuCountAreTypedNotGuessed() {
    RenderingSink sink = new RenderingSink();
    new MytoolsMetParser("s", 0).parse(List.of(MytoolsMetParser.TITLE, "samp\tcs/s\tcpu/s\tcs/o\tcpu/o",
        "10\t100\t50.0\t2.000\t0.500000", "10\t100\t50.0\t2.000\t0.500000", "samp\tcs/s\tcpu/o", "1\t2\t3",
        "samp\tqps", "1\t2", "Cannot parse: Device r/s", MytoolsMetParser.TITLE), sink);
    assertThat(sink.text()).isEqualTo("""
        L1 metadata
        L2 metadata
        L3 metric step=s interval=run machine_cs_per_s=100.0 1/s
        L3 metric step=s interval=run machine_cpu_busy_pct=50.0 %
        L3 metric step=s interval=run machine_cs_per_op=2.0 count
        L3 metric step=s interval=run machine_cpu_pct_s_per_op=0.5 %·s
        L4 reject '10\t100\t50.0\t2.000\t0.500000': a second figures line under one header: an.sh writes one [duplicate]
        L5 metadata
        L6 reject '1\t2\t3': machine_cs_per_s is given twice (an.sh writes each column once) [duplicate]
        L7 reject 'samp\tqps': column 'qps' is not one of an.sh's (samp, o/s and r/s, rMB/s, w/s, wMB/s, r/o, rKB/o, \
        wKB/o, cs/s, cpu/s, cs/o, cpu/o) [header qps]
        L8 reject '1\t2': not under a column header of an.sh's ('samp …') [unknown_line]
        L9 reject 'Cannot parse: Device r/s': an.sh could not read the step's iostat capture, so it wrote no figures \
        [unknown_line]
        L10 reject 'iostat, vmstat normalized by operation rate': a second title: an.sh writes one summary a file \
        [duplicate]
        """);
  }
}
