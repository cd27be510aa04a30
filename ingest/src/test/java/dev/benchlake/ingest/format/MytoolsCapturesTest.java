package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.core.raw.MachineMetric;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestTestSupport;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * mytools' raw {@code sb.vm.*} and {@code sb.io.*} captures ({@code fixtures/mytools-raw}: real
 * vmstat and iostat -y -kx 1 over real sysbench steps, made by make-mytools-tree.sh with IOSTAT=1),
 * without Spark: where a step has no sb.met they give its {@code machine_…} figures, and those agree
 * with what mytools' own an.sh prints from the same files.
 */
class MytoolsCapturesTest {
  private static final Path FOLDER = folder();

  /**
   * What mdcallag/mytools' bench/sysbench.lua/an.sh (commit e1ba3d9e) printed from this folder's
   * captures, run as run.sh runs it: {@code bash an.sh sb.io.<sfx> sb.vm.<sfx> vda <qps> 2}, qps the
   * sb.o's {@code queries:} rate. It was run once outside the repository; its output is the reference.
   */
  private static final Map<String, String> AN_SH = Map.of(
      "point-query.pre.range100.pk1.dop1", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t2.5\t0.0\t16.6\t23.0\t0.001\t0.004\t6.871\t3431.57

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t7971\t95.9\t2.323\t0.027943
          """,
      "point-query.pre.range100.pk1.dop2", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t4.2\t0.0\t15.2\t7.6\t0.002\t0.012\t4.265\t1835.55

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t5531\t95.9\t3.013\t0.052260
          """,
      "point-query.range100.pk1.dop1", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t3.8\t0.0\t11.6\t5.7\t0.001\t0.003\t0.863\t6780.91

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t14019\t95.9\t2.067\t0.014146
          """,
      "random-points.range10.pk1.dop1", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t95.0\t0.6\t6.3\t0.4\t0.052\t0.345\t0.245\t1832.41

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t4896\t95.9\t2.672\t0.052329
          """,
      "read-only.range10.pk1.dop1", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t0.8\t0.0\t10.8\t4.6\t0.000\t0.001\t0.922\t5100.58

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t11863\t96.1\t2.326\t0.018843
          """,
      "update-index.range100.pk1.dop1", """
          iostat, vmstat normalized by operation rate
          samp\tr/s\trMB/s\tw/s\twMB/s\tr/o\trKB/o\twKB/o\to/s
          25\t4.7\t0.0\t428.7\t8.6\t0.032\t0.163\t60.042\t145.89

          samp\tcs/s\tcpu/s\tcs/o\tcpu/o
          27\t3269\t96.1\t22.405\t0.659046
          """);

  @TempDir
  Path tmp;

  private static Path folder() {
    try (Stream<Path> dirs = Files.list(IngestTestSupport.fixture("mytools-raw"))) {
      return dirs.filter(Files::isDirectory).findFirst().orElseThrow();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** A parser's metrics by name and rejects as {@code L<n> <type> <column>: <reason>}. */
  private static final class Collected implements ParseSink {
    final Map<String, Double> metrics = new LinkedHashMap<>();
    final List<Long> metricLines = new ArrayList<>();
    final List<String> rejects = new ArrayList<>();
    long verdicts;

    @Override
    public void task(long lineNo, ParsedTask task) {
      throw new AssertionError("no tasks in a capture");
    }

    @Override
    public void metric(long lineNo, ParsedMetric m) {
      if (metricLines.isEmpty() || metricLines.get(metricLines.size() - 1) != lineNo) {
        verdicts++;
        metricLines.add(lineNo);
      }
      metrics.put(m.metric(), m.value());
    }

    @Override
    public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
      verdicts++;
      rejects.add("L" + lineNo + " " + type.sqlName() + " " + column + ": " + reason);
    }

    @Override
    public void metadata(long lineNo) {
      verdicts++;
    }

    @Override
    public void fact(String runPart, String key, String value) {
    }
  }

  private static Collected parse(dev.benchlake.ingest.parse.DocumentParser parser, List<String> lines) {
    Collected c = new Collected();
    parser.parse(lines, c);
    assertThat(c.verdicts).as("one verdict a line").isEqualTo(lines.size());
    return c;
  }

  private static List<String> lines(String name) throws IOException {
    return Parsing.lines(FOLDER.resolve(name));
  }

  @Test
  void eachStepsCapturesGiveTheFiguresAnShPrintsFromThemToItsPrintedPrecision() throws IOException {
    SourcePlan plan = new MytoolsFormat().plan(LocalPaths.of(FOLDER), IngestRequest.of(FOLDER).planContext()).get(0);
    Map<String, Map<String, Double>> derived = new LinkedHashMap<>();
    for (SourcePlan.PlannedFile file : plan.files()) {
      if (file.role() == SourcePlan.Role.COMPANION) {
        String sfx = file.path().getName().substring("sb.vm.".length());
        Collected c = new Collected();
        Parsing.parse(file, c);
        assertThat(c.rejects).as(file.path().getName()).isEmpty();
        derived.computeIfAbsent(sfx, s -> new LinkedHashMap<>()).putAll(c.metrics);
      }
    }
    assertThat(derived.keySet()).containsAll(AN_SH.keySet());
    // The case an.sh's arithmetic is odd in is here: vmstat repeated its title after 21 rows.
    assertThat(lines("sb.vm.point-query.range100.pk1.dop1")).filteredOn(l -> l.startsWith("procs")).hasSizeGreaterThan(1);
    for (Map.Entry<String, String> ref : AN_SH.entrySet()) {
      Collected expected = parse(new MytoolsMetParser("s", 2), ref.getValue().lines().toList());
      Map<String, String> printed = printedFigures(ref.getValue());
      Map<String, Double> ours = derived.get(ref.getKey());
      assertThat(expected.metrics).hasSize(12);
      assertThat(ours).as(ref.getKey()).containsOnlyKeys(expected.metrics.keySet());
      for (Map.Entry<String, Double> e : expected.metrics.entrySet()) {
        // Within half a unit of an.sh's last printed digit; CPU µs is cpu/o × 2 CPUs × 10⁴.
        boolean us = e.getKey().equals(MachineMetric.CPU_US_PER_OP.metric());
        String text = printed.get(us ? MachineMetric.CPU_PCT_S_PER_OP.metric() : e.getKey());
        double half = 0.5 * Math.pow(10, -decimals(text)) * (us ? 2e4 : 1);
        assertThat(ours.get(e.getKey())).as(ref.getKey() + " " + e.getKey() + ", an.sh " + text)
            .isCloseTo(e.getValue(), within(half * (1 + 1e-9)));
      }
    }
  }

  private static int indexOf(List<String> lines, String start, int from) {
    for (int i = from; i < lines.size(); i++) {
      if (lines.get(i).strip().startsWith(start)) {
        return i;
      }
    }
    throw new AssertionError("no line starting " + start);
  }

  /** The row's fields with field {@code k} replaced, joined by spaces. */
  private static String with(String[] fields, int k, String value) {
    String[] copy = fields.clone();
    copy[k] = value;
    return String.join("  ", copy);
  }

  @Test
  void hostileVmstatRowsAreRejectsWithTheirLineThatCountNoSampleSoTheFiguresStayTheCleanFilesOnes() throws IOException {
    List<String> clean = lines("sb.vm.update-index.range100.pk1.dop1");
    MytoolsVmstatParser parser = new MytoolsVmstatParser("s", 1234.5, 2);
    Collected before = parse(parser, clean);
    assertThat(before.metrics).hasSize(5);
    int header = indexOf(clean, "r  b   swpd", 0);
    List<String> columns = List.of(clean.get(header).strip().split("\\s+"));
    int row = header + 2;
    String[] f = clean.get(row).strip().split("\\s+");
    List<String> hostile = new ArrayList<>(clean);
    hostile.addAll(row, List.of(
        String.join(" ", java.util.Arrays.copyOf(f, 5)),
        with(f, columns.indexOf("cs"), "12x4"),
        with(f, columns.indexOf("us"), "250"),
        with(f, columns.indexOf("sy"), "-3"),
        with(f, columns.indexOf("cs"), "99999999999999999999")));
    Collected after = parse(parser, hostile);
    assertThat(after.metrics).isEqualTo(before.metrics);
    assertThat(after.rejects).containsExactly(
        "L" + (row + 1) + " field_count null: 5 fields, but vmstat's header has " + columns.size(),
        "L" + (row + 2) + " number_format cs: cs '12x4' is not an integer",
        "L" + (row + 3) + " out_of_range us: us '250' is above 100 %",
        "L" + (row + 4) + " out_of_range sy: sy '-3' is negative: vmstat counts and shares never are",
        "L" + (row + 5) + " out_of_range cs: cs '99999999999999999999' is out of range (beyond ±9223372036854775807)");
  }

  @Test
  void aVmstatOfAnotherLayoutAShellErrorAndAnEmptyFileGiveNoFiguresAndSaySo() throws IOException {
    MytoolsVmstatParser parser = new MytoolsVmstatParser("s", 1234.5, 2);
    List<String> clean = lines("sb.vm.update-index.range100.pk1.dop1");
    List<String> noCs = new ArrayList<>(clean);
    noCs.replaceAll(l -> l.contains("swpd") ? l.replace(" cs ", " xx ") : l);
    Collected other = parse(parser, noCs);
    assertThat(other.metrics).isEmpty();
    assertThat(other.rejects.get(0)).isEqualTo("L2 header null: vmstat's columns without cs, us and sy"
        + " (an.sh's fields 12 to 14): an unknown layout, whose rows are not read");
    assertThat(other.rejects.get(1)).isEqualTo("L3 unknown_line null: not under a vmstat column header (' r  b   swpd …')");
    // run.sh captures vmstat's stderr too (>&): on a host without it, the file is the shell's complaint.
    Collected missing = parse(parser, List.of("bash: line 1: vmstat: command not found"));
    assertThat(missing.rejects).containsExactly("L1 header null: not a vmstat capture: its first line is not vmstat's"
        + " title ('procs …')");
    Collected empty = parse(parser, List.of());
    assertThat(empty.metrics).isEmpty();
    assertThat(empty.rejects).isEmpty();
  }

  @Test
  void hostileIostatRowsAreRejectsThatLoseNothingAndALoopDeviceChangesNothing() throws IOException {
    List<String> clean = lines("sb.io.update-index.range100.pk1.dop1");
    MytoolsIostatParser parser = new MytoolsIostatParser("s", 1234.5);
    Collected before = parse(parser, clean);
    assertThat(before.metrics).hasSize(7);
    int header = indexOf(clean, "Device", 0);
    List<String> columns = List.of(clean.get(header).strip().split("\\s+"));
    int row = header + 1;
    String[] f = clean.get(row).strip().split("\\s+");
    List<String> hostile = new ArrayList<>(clean);
    hostile.addAll(row, List.of(
        String.join(" ", java.util.Arrays.copyOf(f, 6)),
        with(f, columns.indexOf("r/s"), "0.0x"),
        with(f, columns.indexOf("w/s"), "-1.00"),
        with(f, columns.indexOf("wkB/s"), "1e400"),
        with(f, 0, "loop0")));
    Collected after = parse(parser, hostile);
    assertThat(after.metrics).isEqualTo(before.metrics);
    assertThat(after.rejects).containsExactly(
        "L" + (row + 1) + " field_count null: 6 fields, but iostat's header has " + columns.size(),
        "L" + (row + 2) + " number_format r/s: r/s '0.0x' is not a number",
        "L" + (row + 3) + " out_of_range w/s: w/s '-1.00' is negative: iostat's rates never are",
        "L" + (row + 4) + " out_of_range wkB/s: wkB/s '1e400' is out of range (beyond ±1.8e308, what a double holds)");
  }

  @Test
  void aSecondDiskAnotherLayoutOrAShellErrorGiveNoIoFiguresAndSaySo() throws IOException {
    MytoolsIostatParser parser = new MytoolsIostatParser("s", 1234.5);
    List<String> clean = lines("sb.io.update-index.range100.pk1.dop1");
    int header = indexOf(clean, "Device", 0);
    String[] f = clean.get(header + 1).strip().split("\\s+");
    List<String> twoDisks = new ArrayList<>(clean);
    int second = indexOf(clean, "Device", header + 1) + 1;
    twoDisks.add(second, with(f, 0, "dm-0"));
    Collected two = parse(parser, twoDisks);
    assertThat(two.metrics).isEmpty();
    assertThat(two.rejects).containsExactly("L" + (second + 1) + " unknown_line null: a second device (" + f[0]
        + ", dm-0): the tree does not name the one run.sh gave an.sh, so this capture gives no I/O figures");
    // iostat -m's columns (rMB/s, wMB/s): not the -kx run.sh runs.
    List<String> megabytes = new ArrayList<>(clean);
    megabytes.replaceAll(l -> l.startsWith("Device") ? l.replace("rkB/s", "rMB/s") : l);
    Collected mb = parse(parser, megabytes);
    assertThat(mb.metrics).isEmpty();
    assertThat(mb.rejects.get(0)).isEqualTo("L" + (header + 1) + " header null: iostat's columns without"
        + " r/s, rkB/s, w/s and wkB/s (iostat -kx's): an unknown layout, whose rows are not read");
    assertThat(mb.rejects.get(1)).isEqualTo("L" + (header + 2)
        + " unknown_line null: not under an iostat device header ('Device …')");
    Collected missing = parse(parser, List.of("bash: line 1: iostat: command not found"));
    assertThat(missing.rejects).containsExactly("L1 header null: not an iostat capture: its first line is not"
        + " iostat's banner ('Linux …')");
    assertThat(parse(parser, List.of()).metrics).isEmpty();
  }

  @Test
  void aStepsSbMetWinsOverItsCapturesAndACaptureWithoutItsPairIsListedNotRead() throws IOException {
    Path copy = Files.createDirectories(tmp.resolve(FOLDER.getFileName().toString()));
    try (Stream<Path> files = Files.list(FOLDER)) {
      for (Path f : files.toList()) {
        Files.copy(f, copy.resolve(f.getFileName()));
      }
    }
    Files.writeString(copy.resolve("sb.met.point-query.range100.pk1.dop1"), MytoolsMetParser.TITLE
        + "\nsamp\tcs/s\tcpu/s\tcs/o\tcpu/o\n10\t100\t50.0\t2.000\t0.000449\n");
    Files.delete(copy.resolve("sb.io.read-only.range10.pk1.dop1"));
    SourceFormat.Planned planned = new MytoolsFormat().planAll(LocalPaths.of(copy), IngestRequest.of(copy).planContext());
    List<String> companions = planned.sources().get(0).files().stream()
        .filter(f -> f.role() == SourcePlan.Role.COMPANION).map(f -> f.path().getName()).toList();
    assertThat(companions).contains("sb.met.point-query.range100.pk1.dop1", "sb.vm.update-index.range100.pk1.dop1",
        "sb.io.update-index.range100.pk1.dop1").doesNotContain("sb.vm.point-query.range100.pk1.dop1",
        "sb.io.point-query.range100.pk1.dop1", "sb.vm.read-only.range10.pk1.dop1");
    String instead = "; the step's sb.met, an.sh's summary of it as published, is read instead";
    assertThat(planned.notResults()).contains(
        new NotResult(copy.resolve("sb.vm.point-query.range100.pk1.dop1").toString(), "vmstat capture" + instead),
        new NotResult(copy.resolve("sb.io.point-query.range100.pk1.dop1").toString(), "iostat capture" + instead),
        new NotResult(copy.resolve("sb.vm.read-only.range10.pk1.dop1").toString(), "vmstat capture"));
  }

  /** an.sh's printed figures by metric name, as text (for their number of decimals). */
  private static Map<String, String> printedFigures(String anSh) {
    Map<String, String> out = new LinkedHashMap<>();
    String[] header = null;
    for (String line : anSh.lines().toList()) {
      String[] f = line.strip().split("\\s+");
      if (f[0].equals("samp")) {
        header = f;
      } else if (header != null && f.length == header.length) {
        for (int k = 0; k < f.length; k++) {
          String figure = f[k];
          MachineMetric.ofColumn(header[k]).ifPresent(m -> out.put(m.metric(), figure));
        }
      }
    }
    return out;
  }

  private static int decimals(String printed) {
    int dot = printed.indexOf('.');
    return dot < 0 ? 0 : printed.length() - dot - 1;
  }
}
