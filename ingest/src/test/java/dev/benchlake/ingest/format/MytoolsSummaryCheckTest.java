package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.benchlake.ingest.format.MytoolsSummaryCheck.Expected;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** run.sh's arithmetic, its rounding, and how a summary's figures meet the step's dops. */
class MytoolsSummaryCheckTest {
  private static Expected qps(int dop, double value) {
    return new Expected(dop, "sb.o.point-query.range100.pk1.dop" + dop, value, null);
  }

  @Test
  void figuresComeFromTheMetricsRunShReads() {
    Map<String, Double> metrics = Map.of("qps", 40359.85, "tps", 40359.85, "latency_avg", 0.02, "latency_max", 0.96,
        "latency_p95", 0.03);
    assertThat(MytoolsSummaryCheck.expected("qps", "point-query", 1, "f", metrics, Map.of()).value()).isEqualTo(40359.85);
    assertThat(MytoolsSummaryCheck.expected("trx", "point-query", 1, "f", metrics, Map.of()).value()).isEqualTo(40359.85);
    assertThat(MytoolsSummaryCheck.expected("rtavg", "point-query", 1, "f", metrics, Map.of()).value()).isEqualTo(0.02);
    assertThat(MytoolsSummaryCheck.expected("rtmax", "point-query", 1, "f", metrics, Map.of()).value()).isEqualTo(0.96);
    assertThat(MytoolsSummaryCheck.expected("rt95", "point-query", 1, "f", Map.of("latency_p99", 0.05), Map.of()).value())
        .as("whatever percentile sysbench printed").isEqualTo(0.05);
    Expected none = MytoolsSummaryCheck.expected("rtmax", "point-query", 1, "f", Map.of(), Map.of());
    assertThat(none.value()).isNull();
    assertThat(none.missing()).isEqualTo("it has no latency max: line");
  }

  @Test
  void scanIsMillionsOfRowsPerSecond() {
    // run.sh: table size × tables / 10^6 / seconds, %.3f.
    Expected scan = MytoolsSummaryCheck.expected("qps", "scan", 1, "f", Map.of("qps", 0.5, "total_time", 2.5),
        Map.of("option.table-size", "20000000", "option.tables", "4"));
    assertThat(scan.value()).isCloseTo(32.0, within(1e-12));
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("32.000"), List.of(scan))).isEmpty();
    assertThat(MytoolsSummaryCheck.expected("qps", "scan", 1, "f", Map.of("total_time", 2.5), Map.of()).missing())
        .contains("--table-size and --tables");
  }

  @Test
  void aFigureAgreesWithinHalfItsLastDigit() {
    // %.0f of 12344.5: C rounds half to even (12344), Java half up (12345); both are run.sh's figure.
    assertThat(MytoolsSummaryCheck.agrees("12344", qps(1, 12344.5))).isTrue();
    assertThat(MytoolsSummaryCheck.agrees("12345", qps(1, 12344.5))).isTrue();
    assertThat(MytoolsSummaryCheck.agrees("12346", qps(1, 12344.5))).isFalse();
    assertThat(MytoolsSummaryCheck.agrees("40360", qps(1, 40359.85))).isTrue();
    assertThat(MytoolsSummaryCheck.agrees("40359", qps(1, 40359.85))).isFalse();
    assertThat(MytoolsSummaryCheck.agrees("0.96", new Expected(1, "f", 0.96, null))).isTrue();
    assertThat(MytoolsSummaryCheck.agrees("0.97", new Expected(1, "f", 0.96, null))).isFalse();
    assertThat(MytoolsSummaryCheck.agrees("x", qps(1, 1))).isFalse();
    assertThat(MytoolsSummaryCheck.agrees("1", new Expected(1, "f", null, "none"))).isFalse();
  }

  @Test
  void figuresMeetTheDopsInOrderSkippingOlderOutputs() {
    List<Expected> raw = List.of(qps(1, 100.2), qps(2, 190.4), qps(4, 300.6));
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("100", "190", "301"), raw)).isEmpty();
    // all_small.sh's first point-query.pre runs at dop 2; the next call (dop 1) leaves its output beside.
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("100"), raw)).isEmpty();
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("100", "301"), raw)).isEmpty();
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("301", "100"), raw)).as("order matters").isPresent();
  }

  @Test
  void aDisagreementSaysWhichFigureAndWhatTheRawOutputGives() {
    List<Expected> raw = List.of(qps(1, 40359.85), qps(2, 70000.12));
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("40360", "71000"), raw)).contains(
        "qps 71000 for dop 2 disagrees with sb.o.point-query.range100.pk1.dop2, which gives 70000");
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("50000"), raw)).contains(
        "qps 50000 matches no 1 of the sb.o files: dop 1 40360; dop 2 70000");
    assertThat(MytoolsSummaryCheck.disagreement("qps", List.of("1", "2", "3"), raw)).contains(
        "it has 3 figures but 2 sb.o files are beside it (dop 1, 2)");
    assertThat(MytoolsSummaryCheck.disagreement("rtmax", List.of("0.96"), List.of(new Expected(1, "sb.o.x", null,
        "it has no latency max: line")))).contains("rtmax 0.96 for dop 1 cannot be checked: sb.o.x it has no latency max: line");
  }

  /**
   * 34 outputs of one step (sb.o…dop1 to dop34), a summary whose first 16 figures agree with every
   * one of them and whose last agrees with none: a search over every choice of outputs tried
   * C(34, 16) ≈ 2·10⁹ of them (still running after 366 s); the matching asks about each output once.
   */
  @Test
  @org.junit.jupiter.api.Timeout(value = 10, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void thirtyFourOutputsAreMatchedInOnePass() {
    List<Expected> raw = java.util.stream.IntStream.rangeClosed(1, 34).mapToObj(dop -> qps(dop, 100.2)).toList();
    List<String> figures = new java.util.ArrayList<>(java.util.Collections.nCopies(16, "100"));
    figures.add("999");
    java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
    assertThat(MytoolsSummaryCheck.inOrder(figures, raw, (f, r) -> {
      asked.incrementAndGet();
      return MytoolsSummaryCheck.agrees(f, r);
    })).isFalse();
    assertThat(asked.get()).as("agrees() calls").isLessThanOrEqualTo(raw.size());
    assertThat(MytoolsSummaryCheck.disagreement("qps", figures, raw)).get().asString()
        .startsWith("qps 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 999 matches no 17");
    assertThat(MytoolsSummaryCheck.inOrder(List.of("1", "3"), List.of("1", "2", "3"), String::equals)).isTrue();
    assertThat(MytoolsSummaryCheck.inOrder(List.of("3", "1"), List.of("1", "2", "3"), String::equals)).isFalse();
  }

  /** A summary labelled with a range no int holds is a typed reject, not a NumberFormatException. */
  @Test
  void aRangeLabelTooLargeIsAnOutOfRangeReject() {
    MytoolsLayout.SummaryFile file = MytoolsLayout.summaryFile("sb.r.qps.point-query.range100.pk1").orElseThrow();
    RenderingSink sink = new RenderingSink();
    new MytoolsSummaryParser(file, List.of(qps(1, 100.2))).parse(List.of("100\tpg point-query range=99999999999"), sink);
    assertThat(sink.text()).isEqualTo("L1 reject '100\tpg point-query range=99999999999': range=99999999999 is out of"
        + " range (a range is at most 2147483647) [out_of_range label]\n");
  }

  /** Numbers in names that no int holds: a folder's version digits, a pgbench log's thread suffix. */
  @Test
  void digitsInNamesThatNoIntHoldsDoNotCrash() {
    assertThat(MytoolsLayout.folder("x.pg1699999999999999_o2.cx10a.pk1").orElseThrow().postgresVersion())
        .contains("16.99999999999999");
    assertThat(MytoolsLayout.folder("x.pg1605_o2.cx10a.pk1").orElseThrow().postgresVersion()).contains("16.5");
    assertThat(MytoolsLayout.rawFile("sb.o.scan.range99999999999.pk1.dop1")).isEmpty();
    assertThat(PgbenchLogFiles.threadIndex(new org.apache.hadoop.fs.Path("/r/pgbench_log.4242.99999999999")))
        .isEqualTo(Integer.MAX_VALUE);
    assertThat(PgbenchLogFiles.threadIndex(new org.apache.hadoop.fs.Path("/r/pgbench_log.4242.3"))).isEqualTo(3);
  }
}
