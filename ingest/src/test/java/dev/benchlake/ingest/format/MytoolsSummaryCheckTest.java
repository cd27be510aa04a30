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
}
