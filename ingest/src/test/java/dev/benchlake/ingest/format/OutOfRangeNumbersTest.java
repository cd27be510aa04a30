package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Numbers no tool prints, found by {@link HostileInputProperties}: each used to be stored as a
 * wrong value (a wrapped-around long, an infinity) and is now a reject that says why.
 */
class OutOfRangeNumbersTest {
  private static String lines(dev.benchlake.ingest.parse.LineParser parser, String... lines) {
    RenderingSink sink = new RenderingSink();
    for (int i = 0; i < lines.length; i++) {
      parser.parse(i + 1, lines[i], sink);
    }
    return sink.text();
  }

  @Test
  void pgbenchLogTimesThatWouldWrapAround() {
    String out = lines(new PgbenchLogParser("p", true),
        "0 1 999999999999999999 0 1700000000 5",
        "0 2 100 0 999999999999999999 5",
        "0 3 100 0 0 5",
        "0 4 100 0 1700000000 5");
    assertThat(out).contains("L1 reject '0 1 999999999999999999 0 1700000000 5': time 999999999999999999 µs is out of range")
        .contains("L2 reject '0 2 100 0 999999999999999999 5': time_epoch 999999999999999999 is out of range")
        .contains("L3 reject '0 3 100 0 0 5': time 100 µs is out of range")
        .contains("L4 task step=p client=0 seq=4 start_us=1699999999999905 end_us=1700000000000005 latency_ns=100000");
  }

  @Test
  void loadgenTimesBeyondTheYear2262() {
    String out = lines(new LoadgenTaskParser(1_700_000_000_000_000_000L),
        dev.benchlake.core.raw.TaskCsv.HEADER,
        "s,0,1,0,9223372036854775000,9223372036854775800,0,false,true,,");
    assertThat(out).contains("L2 reject").contains("is beyond the year 2262");
  }

  @Test
  void testPgPerfTicksThatWouldWrapAround() {
    RenderingSink sink = new RenderingSink();
    String id = "7fef1b67-3dfb-4190-869a-3ff7cce113c1";
    new TestPgPerfDetailsParser("s", id, null, List.of()).parse(List.of(id + "\t1\t9223372036854775807\t03:47:09"), sink);
    assertThat(sink.text()).contains("L1 reject").contains("TaskDuration >= 0 (at most 92233720368547758 ticks)");
  }

  @Test
  void sysbenchAndPgbenchNumbersBeyondADouble() {
    String huge = "1" + "0".repeat(400);
    RenderingSink sysbench = new RenderingSink();
    new SysbenchParser("s").parse(List.of("    transactions:                        " + huge + " (1.0 per sec.)",
        "[ " + huge + "s ] thds: 2 tps: 5.0"), sysbench);
    assertThat(sysbench.text()).contains("L1 reject").contains("transactions is out of range (not a finite number)")
        .contains("L2 reject").contains("the interval's time is out of range").doesNotContain("Infinity");
    RenderingSink pgbench = new RenderingSink();
    new PgbenchSummaryParser(null).parse(List.of("progress: 1.0 s, " + huge + " tps, lat 1.0 ms stddev 0.1",
        "latency average = 1.5 ms"), pgbench);
    assertThat(pgbench.text()).contains("L1 reject").contains("tps is out of range").doesNotContain("Infinity")
        .contains("L2 metric step=pgbench interval=run latency_avg=1.5 ms");
  }
}
