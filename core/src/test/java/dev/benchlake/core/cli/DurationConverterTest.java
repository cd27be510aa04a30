package dev.benchlake.core.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class DurationConverterTest {
  @Test
  void parsesCommonForms() {
    assertThat(DurationConverter.parse("60s")).isEqualTo(Duration.ofSeconds(60));
    assertThat(DurationConverter.parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(DurationConverter.parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(DurationConverter.parse("250us")).isEqualTo(Duration.ofNanos(250_000));
    assertThat(DurationConverter.parse("2m")).isEqualTo(Duration.ofMinutes(2));
    assertThat(DurationConverter.parse("1h")).isEqualTo(Duration.ofHours(1));
    assertThat(DurationConverter.parse("PT1M")).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void requiresAUnit() {
    assertThatThrownBy(() -> DurationConverter.parse("15"))
        .isInstanceOf(CommandLine.TypeConversionException.class)
        .hasMessageContaining("e.g. 60s");
  }
}
