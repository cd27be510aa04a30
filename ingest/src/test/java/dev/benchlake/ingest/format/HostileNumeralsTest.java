package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.ingest.parse.LineParser;
import dev.benchlake.ingest.parse.Numerals;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Numerals no tool writes, in the numeric field of every parser: each is a typed reject of its line
 * ({@code number_format}, {@code out_of_range}, or {@code unknown_line} where the parser's grammar
 * takes digits only), never a value, never a crash. {@code 1E-2147483647} in a mytools summary was
 * an {@code OutOfMemoryError} (its BigDecimal scale used as a format's precision) that killed the
 * JVM and a whole {@code batch --keep-going}; {@code 0x1p3}, {@code 1d} and {@code 1e-400} were
 * stored as 8, 1 and 0.
 */
class HostileNumeralsTest {
  /** Numerals that must be a reject wherever a number is read. */
  static final List<String> HOSTILE = List.of(
      "1E-2147483647", "1E-2147483648", "1e-400", "1E+2147483647", "1e400", "9".repeat(400),
      "1e99999999999999999999", "NaN", "-NaN", "Infinity", "-Infinity", "inf", "0x1p3", "0x10", "1d", "2.5f",
      "1_000", "١٢٣", "1e", "e5", ".", "+", "--1", "1.2.3", "1,5");

  /**
   * The types a numeral's line may get: what it is not (a number), the range it leaves, or, where the
   * parser's grammar takes digits only, a line of no known form; a delimiter inside it splits the
   * fields (a field count, or the next field's syntax).
   */
  private static final Set<String> TYPED = Set.of("[number_format", "[out_of_range", "[unknown_line", "[field_count",
      "[syntax");

  /** A parser, given one numeral: what it makes of the one line holding it, and what an accepted one says. */
  private record Probe(String name, Function<String, String> verdict, Function<String, String> accepted) {}

  private static String line(LineParser parser, long lineNo, String... lines) {
    RenderingSink sink = new RenderingSink();
    for (int i = 0; i < lines.length; i++) {
      parser.parse(i + 1, lines[i], sink);
    }
    return lastLine(sink.text(), lineNo);
  }

  private static String document(dev.benchlake.ingest.parse.DocumentParser parser, String line) {
    RenderingSink sink = new RenderingSink();
    parser.parse(List.of(line), sink);
    return sink.text().strip();
  }

  /** The verdicts of line {@code lineNo}. */
  private static String lastLine(String rendered, long lineNo) {
    return String.join("\n", rendered.lines().filter(l -> l.startsWith("L" + lineNo + " ")).toList());
  }

  private static CsvMapping mapping(String json) {
    try {
      return CsvMapping.parse("m.json", "m.json", json.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<Probe> probes() {
    MytoolsLayout.SummaryFile summary = MytoolsLayout.summaryFile("sb.r.qps.point-query.range100.pk1").orElseThrow();
    CsvMapping tasks = mapping("{\"columns\": {\"step\": \"step\", \"latency\": \"lat\", \"timestamp\": \"ts\"},"
        + " \"timestamp_format\": \"epoch_s\"}");
    CsvTasksParser.Indexes idx = new CsvTasksParser.Indexes(-1, 0, 1, 2, -1, -1, -1, 3);
    CsvMapping wide = mapping("{\"layout\": \"wide\", \"columns\": {\"step\": \"step\"}, \"metric\": \"qps\", \"column_label\": \"v\"}");
    String id = "7fef1b67-3dfb-4190-869a-3ff7cce113c1";
    return List.of(
        new Probe("mytools summary (sb.r)", n -> {
          RenderingSink sink = new RenderingSink();
          new MytoolsSummaryParser(summary, List.of(new MytoolsSummaryCheck.Expected(1, "sb.o.point-query.range100.pk1.dop1",
              5.0, null))).parse(List.of(n + "\tpgsql point-query range=100"), sink);
          return sink.text().strip();
        }, n -> "L1 metadata"),
        new Probe("pgbench aggregate log", n -> line(new PgbenchAggParser("s", 1_700_000_000L, 1.0), 1,
            "1700000000 10 " + n + " 100 1 5"), n -> "_latency_sum=5.0"),
        new Probe("CSV tasks: latency", n -> line(new CsvTasksParser(tasks, idx, null), 2, "step,lat,ts",
            "s," + n + ",1700000000"), n -> "latency_ns="),
        new Probe("CSV tasks: epoch_s timestamp", n -> line(new CsvTasksParser(tasks, idx, null), 2, "step,lat,ts",
            "s,1," + n), n -> "start_us="),
        new Probe("CSV wide", n -> line(new CsvWideParser(wide, 0, List.of(1), List.of("v1"), 2), 2, "step,v1",
            "s," + n), n -> "qps="),
        new Probe("sysbench", n -> document(new SysbenchParser("s"), "    transactions:                        " + n
            + " (1.0 per sec.)"), n -> "transactions="),
        new Probe("pgbench output", n -> document(new PgbenchSummaryParser(null), "latency average = " + n + " ms"),
            n -> "latency_avg="),
        new Probe("pgbench log", n -> line(new PgbenchLogParser("p", true), 1, "0 1 " + n + " 0 1700000000 5"),
            n -> "latency_ns="),
        new Probe("loadgen tasks.csv", n -> line(new LoadgenTaskParser(1_700_000_000_000_000_000L), 2, TaskCsv.HEADER,
            "s,0,1,0," + n + ",2000,0,false,true,,"), n -> "latency_ns="),
        new Probe("TestPostgresqlPerf details", n -> {
          RenderingSink sink = new RenderingSink();
          new TestPgPerfDetailsParser("s", id, null, List.of()).parse(List.of(id + "\t1\t" + n + "\t03:47:09"), sink);
          return lastLine(sink.text(), 1);
        }, n -> "latency_ns="));
  }

  @Test
  void everyHostileNumeralIsATypedRejectInEveryParser() {
    List<String> wrong = new ArrayList<>();
    for (Probe probe : probes()) {
      for (String numeral : HOSTILE) {
        String verdict;
        try {
          verdict = probe.verdict().apply(numeral);
        } catch (RuntimeException | OutOfMemoryError e) {
          wrong.add(probe.name() + " '" + abbreviated(numeral) + "': " + e);
          continue;
        }
        boolean oneTypedReject = verdict.lines().count() == 1 && verdict.contains(" reject ")
            && TYPED.stream().anyMatch(verdict::contains);
        if (!oneTypedReject) {
          wrong.add(probe.name() + " '" + abbreviated(numeral) + "': " + abbreviated(verdict));
        }
      }
    }
    assertThat(wrong).as("verdicts that are not one typed reject").isEmpty();
  }

  @Test
  void plainDecimalsStillReadAsTheirValue() {
    // An integer every parser takes; a fraction and an exponent where the parser's format may hold one.
    for (Probe probe : probes()) {
      String verdict = probe.verdict().apply("5");
      assertThat(verdict).as(probe.name()).doesNotContain(" reject ").contains(probe.accepted().apply("5"));
    }
    assertThat(line(new PgbenchAggParser("s", 1_700_000_000L, 1.0), 1, "1700000000 10 2.5e1 100 1 5"))
        .contains("_latency_sum=25.0");
    CsvMapping tasks = mapping("{\"columns\": {\"step\": \"step\", \"latency\": \"lat\"}}");
    assertThat(line(new CsvTasksParser(tasks, new CsvTasksParser.Indexes(-1, 0, 1, -1, -1, -1, -1, 2), null), 2,
        "step,lat", "s, 1.5e-3 ")).contains("latency_ns=1500");
  }

  @Test
  void aSummaryFigureWithMoreDecimalsThanRunShPrintsIsOutOfRange() {
    MytoolsLayout.SummaryFile summary = MytoolsLayout.summaryFile("sb.r.qps.point-query.range100.pk1").orElseThrow();
    RenderingSink sink = new RenderingSink();
    new MytoolsSummaryParser(summary, List.of(new MytoolsSummaryCheck.Expected(1, "f", 5.0, null)))
        .parse(List.of("5.0000000000000000000001\tpgsql point-query range=100"), sink);
    assertThat(sink.text()).contains("reject").contains("[out_of_range qps]").contains("22 decimals");
  }

  @Test
  void decimalsAreCountedWithoutBigDecimal() {
    assertThat(Map.of("12.50", Numerals.decimals("12.50"), "1.5e-3", Numerals.decimals("1.5e-3"), "1e3",
        Numerals.decimals("1e3"), "1E-2147483647", Numerals.decimals("1E-2147483647"), "1E-99999999999",
        Numerals.decimals("1E-99999999999"))).isEqualTo(Map.of("12.50", 2, "1.5e-3", 4, "1e3", 0,
        "1E-2147483647", Integer.MAX_VALUE, "1E-99999999999", Integer.MAX_VALUE));
  }

  private static String abbreviated(String s) {
    return s.length() > 120 ? s.substring(0, 120) + "…(" + s.length() + " chars)" : s;
  }
}
