package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/** The duet's barrier protocol, both ends of it: what loadgen prints, what it reads, and what stops it. */
class StdioBarrierTest {
  private static StdioBarrier barrier(String stdin, StringWriter stdout) {
    return new StdioBarrier(new BufferedReader(new StringReader(stdin)), new PrintWriter(stdout));
  }

  @Test
  void eachStepSaysReadyAndStartsAtTheInstantItIsGiven() throws IOException {
    StringWriter out = new StringWriter();
    StdioBarrier b = barrier(StdioBarrier.go(0, 1_795_946_400_123_456_789L) + "\n" + StdioBarrier.go(1, 42) + "\n", out);
    assertThat(b.awaitStart(0, "point-select")).isEqualTo(1_795_946_400_123_456_789L);
    assertThat(b.awaitStart(1, "scan_range=100")).isEqualTo(42);
    String[] lines = out.toString().split("\n");
    assertThat(lines).containsExactly("benchlake-barrier ready 0 point-select", "benchlake-barrier ready 1 scan_range=100");
    // The coordinator reads them back with the same class.
    assertThat(StdioBarrier.ready(lines[1])).hasValue(new StdioBarrier.Ready(1, "scan_range=100"));
    assertThat(StdioBarrier.ready("point-select  1000 tasks")).isEmpty();
  }

  @Test
  void stopTheEndOfStdinOrAnAnswerToAnotherStepStopTheRun() {
    assertThatThrownBy(() -> barrier("stop\n", new StringWriter()).awaitStart(0, "a"))
        .isInstanceOf(IOException.class).hasMessageContaining("stopped the run before step a");
    assertThatThrownBy(() -> barrier("", new StringWriter()).awaitStart(0, "a"))
        .isInstanceOf(IOException.class).hasMessageContaining("went away");
    assertThatThrownBy(() -> barrier("go 1 5\n", new StringWriter()).awaitStart(0, "a"))
        .isInstanceOf(IOException.class).hasMessageContaining("expected 'go 0 EPOCH_NS'");
  }
}
