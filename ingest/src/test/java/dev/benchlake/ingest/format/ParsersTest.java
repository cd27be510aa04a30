package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.SharedData;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Parser edge cases, on strings: no Spark, no files but the shared real data. */
class ParsersTest {
  private static String lines(LineParserCase parser, String... lines) {
    RenderingSink sink = new RenderingSink();
    for (int i = 0; i < lines.length; i++) {
      parser.parser.parse(i + 1, lines[i], sink);
    }
    return sink.text();
  }

  private record LineParserCase(dev.benchlake.ingest.parse.LineParser parser) {}

  /**
   * sysbench 1.1 (which mytools' trees are made with; 1.0.20 here) replaces "General statistics:"
   * by a "Throughput:" section and may print fractional interval times: the layout of published
   * 1.1 outputs, written out.
   */
  @Test
  void sysbench11ThroughputSectionAndFractionalIntervals() {
    RenderingSink sink = new RenderingSink();
    new SysbenchParser("read-only_range=10").parse(List.of(
        "[ 55.0s ] thds: 16 tps: 576.28 qps: 11492.65 (r/w/o: 8032.95/2307.13/1152.57) lat (ms,95%): 87.56 err/s: 0.00 reconn/s: 0.00",
        "Throughput:",
        "    events/s (eps):                      427.2428",
        "    time elapsed:                        10.0552s",
        "    total number of events:              4296"), sink);
    assertThat(sink.text()).doesNotContain(" reject ")
        .contains("L1 metric step=read-only_range=10 interval=0.0+55.0 qps=11492.65 1/s\n", "L2 metadata\n",
            "L3 metric step=read-only_range=10 interval=run events_per_s=427.2428 1/s\n",
            "L4 metric step=read-only_range=10 interval=run total_time=10.0552 s\n",
            "L5 metric step=read-only_range=10 interval=run events=4296.0 count\n");
  }

  /** PostgreSQL 14 and older write 6, 10 or 11 fields (the documented format; no pgbench 14 here). */
  @Test
  void aggregateLogsOfPostgres14AndOlder() {
    String out = lines(new LineParserCase(new PgbenchAggParser("tpcb", 1_700_000_000L, 5.0)),
        "1700000000 100 50000 30000000 200 1500",
        "1700000005 80 48000 31000000 300 2500 8000 900000 10 400",
        "1700000010 90 45000 25000000 250 1900 9000 950000 20 500 3",
        "1700000015 90 45000 25000000 250 1900 9000 950000 20 500 3 1",
        "1700000020 -5 1 1 1 1");
    assertThat(out).contains("L1 metric step=tpcb interval=0.0+5.0 transactions=100.0 count")
        .contains("L1 metric step=tpcb interval=0.0+5.0 latency_min=0.2 ms")
        .doesNotContain("L1 metric step=tpcb interval=0.0+5.0 lag")
        .contains("L2 metric step=tpcb interval=5.0+5.0 lag_max=0.4 ms")
        .contains("L3 metric step=tpcb interval=10.0+5.0 skipped=3.0 count")
        .contains("L4 reject '1700000015 90 45000 25000000 250 1900 9000 950000 20 500 3 1': 12 fields; a pgbench aggregate line has 6, 10 or 11")
        .contains("L5 reject '1700000020 -5 1 1 1 1': field 2 is negative or not finite: '-5'");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "0 1 1949 0 1795984429 779206 50|true",
      "0 3 serialization 0 1795984447 972194 1|false",
      "1 2 skipped 0 1795985326 326818 0|true",
      "0 3 2000 0 1795984447 972194 1500|true",
      "0 3 2000 0 1795984447 972194 3|true",
  })
  void seventhFieldIsScheduleLagUnlessFailuresShowRetries(String line, boolean lag) {
    assertThat(PgbenchLogFormat.seventhIsLag(List.of(line))).isEqualTo(lag);
  }

  @Test
  void pgbenchLogRejectsSayWhy() {
    String out = lines(new LineParserCase(new PgbenchLogParser("p", true)),
        "0 1 100 0 1700000000 5 200",
        "0 1 100 0 1700000000",
        "x 1 100 0 1700000000 5",
        "0 2 100 2 1700000000 5",
        "0 3 deadlock 0 1700000000 5 0 2");
    assertThat(out).contains("L1 reject '0 1 100 0 1700000000 5 200': schedule_lag 200 µs is longer than the latency 100 µs"
            + " [mismatch schedule_lag]")
        .contains("L2 reject '0 1 100 0 1700000000': 5 fields").containsPattern("L2 reject .*\\[field_count]\n")
        .contains("L3 reject 'x 1 100 0 1700000000 5': client_id is not an integer: 'x' [number_format client_id]")
        .contains("L4 task step=p#2 client=0 seq=2")
        .contains("L5 task step=p client=0 seq=3 start_us=- end_us=1700000000000005 latency_ns=- service_ns=- wait_ns=- "
            + "warmup=false ok=false sqlstate=40P01 error=deadlock after 2 retries");
  }

  @Test
  void testPgPerfDetailsRejectsSayWhy() {
    RenderingSink sink = new RenderingSink();
    String id = "7fef1b67-3dfb-4190-869a-3ff7cce113c1";
    new TestPgPerfDetailsParser("s", id, null, List.of("Timeout while getting a connection from pool.")).parse(List.of(
        id + "\t41\t52654390\t03:47:09",
        id + "\t31\t-1\t00:00:00",
        id + "\t31\t12\t25:00:00",
        "0a1c8638-7a92-4940-8abb-50f768454384\t1\t2\t00:00:01",
        id + "\t1\t2"), sink);
    assertThat(sink.text())
        .contains("L1 task step=s client=0 seq=0 start_us=- end_us=13629000000 latency_ns=5265439000")
        .contains("L2 task step=s client=0 seq=1 start_us=- end_us=- latency_ns=- service_ns=- wait_ns=- warmup=false ok=false"
            + " sqlstate= error=Timeout while getting a connection from pool.")
        .contains("L3 reject '" + id + "\t31\t12\t25:00:00': EndTime is not HH:MM:SS: '25:00:00' [syntax EndTime]")
        .contains("L4 reject '0a1c8638-7a92-4940-8abb-50f768454384\t1\t2\t00:00:01': ApplicationId 0a1c8638-7a92-4940-8abb-50f768454384 is not this file's " + id
            + " [mismatch ApplicationId]")
        .contains("L5 reject '" + id + "\t1\t2': 3 tab-separated fields; a details line has 4")
        .containsPattern("L5 reject .*\\[field_count]\n")
        .contains("fact max_running_tasks=41")
        .contains("fact times_known=false");
  }

  /** TaskCsv says what is wrong only in its messages; each shape it has gets its type. */
  @Test
  void loadgenRejectsGetTheTypeOfWhatTaskCsvRefused() {
    String out = lines(new LineParserCase(new LoadgenTaskParser(0L)),
        "step,client,seq",
        "point-select,1,99,5,6",
        "point-select,x,0,0,10,20,0,false,true,,",
        "point-select,1,0,0,30,20,0,false,true,,",
        "point-select,1,0,0,99999999999999999999,20,0,false,true,,",
        "point-select,1,0,0,10,20,0,false,maybe,,");
    assertThat(out).containsPattern("L1 reject .*\\[header]\n")
        .containsPattern("L2 reject .*\\[field_count]\n")
        .containsPattern("L3 reject .*\\[number_format]\n")
        .containsPattern("L4 reject .*times out of order.*\\[mismatch]\n")
        .containsPattern("L5 reject .*\\[out_of_range]\n")
        .containsPattern("L6 reject .*\\[syntax]\n");
  }

  @Test
  void csvLinesFollowRfc4180WithinOneLine() {
    assertThat(CsvLine.split("a,\"b, c\",\"d \"\"e\"\"\",", ',')).containsExactly("a", "b, c", "d \"e\"", "");
    assertThat(CsvLine.split("", ',')).containsExactly("");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> CsvLine.split("a,\"b", ','))
        .hasMessage("field 2 has an unterminated quote");
  }

  /**
   * The PostgreSQL 9.4 outputs pasted in the TestPostgresqlPerf notes (the 13-and-older form with
   * "including/excluding connections establishing"): the first run of the file, then everything
   * after it rejected as another run.
   */
  @Test
  void pgbench94SummariesFromTheSharedNotes() throws IOException {
    Path notes = SharedData.require("testpgperf/pgbench-notes.txt");
    List<String> all = Parsing.lines(notes);
    int start = all.indexOf("C:\\Program Files\\PostgreSQL\\9.4\\bin>pgbench -h 127.0.0.1 -U postgres -p 5432 -T 240 -s 500");
    int end = all.indexOf("tps = 32.373123 (excluding connections establishing)");
    assertThat(start).isPositive();
    Path one = Files.write(Files.createTempDirectory("notes").resolve("a2-local.txt"), all.subList(start + 1, end + 1),
        StandardCharsets.UTF_8);
    RenderingSink sink = new RenderingSink();
    new PgbenchSummaryParser(null).parse(Parsing.lines(one), sink);
    assertThat(sink.text()).doesNotContain("reject")
        .contains("fact clients=1")
        .contains("fact transaction_type=TPC-B (sort of)").doesNotContain("fact workload=")
        .contains("metric step=tpcb-like interval=run transactions=7769.0 count")
        .contains("metric step=tpcb-like interval=run latency_avg=30.892 ms")
        .contains("metric step=tpcb-like interval=run tps_including_connections=32.366134 1/s")
        .contains("metric step=tpcb-like interval=run tps=32.373123 1/s");

    RenderingSink whole = new RenderingSink();
    new PgbenchSummaryParser(null).parse(all, whole);
    String text = whole.text();
    assertThat(text).contains("L1 reject 'Scenarios': not a line of pgbench's output")
        .contains("metric step=tpcb-like interval=run tps=32.373123 1/s")
        .doesNotContain("tps=535.299598")
        .contains("after the end of the first pgbench run's summary; one file holds one run");
  }
}
