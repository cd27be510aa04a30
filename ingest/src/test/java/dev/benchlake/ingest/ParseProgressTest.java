package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The progress line of an ingest's parsing: bytes and lines done of the whole, the rate, the time left. */
class ParseProgressTest {
  @Test
  void theLineSaysWhatIsDoneTheRateAndTheTimeLeft() {
    assertThat(ParseProgress.line(52_400_000, 150_000_000, 700_000, 2_000_000, 5.0))
        .isEqualTo("parsing: 52.4 MB of 150.0 MB (34 %), 700,000 of 2,000,000 lines, 10.5 MB/s, about 10 s left");
    assertThat(ParseProgress.line(0, 150_000_000, 0, 2_000_000, 5.0))
        .isEqualTo("parsing: 0.0 kB of 150.0 MB (0 %), 0 of 2,000,000 lines, 0.0 kB/s, time left not known yet");
    assertThat(ParseProgress.line(1_000_000, 1_000_000_000, 10_000, 10_000_000, 4.0))
        .endsWith("250.0 kB/s, about 66 min 36 s left");
  }
}
