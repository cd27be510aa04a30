package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A run's db_major from its db_version label, which may hold any digits. */
class MajorVersionTest {
  @Test
  void theMajorOfAVersionLabelAndNoneForDigitsNoIntHolds() {
    assertThat(IngestPass.majorOf("16.4")).isEqualTo(16);
    assertThat(IngestPass.majorOf("9.6")).as("before 10 the major is two numbers").isNull();
    assertThat(IngestPass.majorOf("99999999999.1")).isNull();
  }
}
