package dev.benchlake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class LabelsTest {
  @Test
  void parsesKeyAndValueAndKeepsHostileValuesVerbatim() {
    assertThat(Labels.parse("os=linux")).isEqualTo(Map.entry("os", "linux"));
    assertThat(Labels.parse("note=<script>alert(1)</script>|a=b").getValue())
        .isEqualTo("<script>alert(1)</script>|a=b");
  }

  @Test
  void rejectsWhatCannotBeALabel() {
    assertThatThrownBy(() -> Labels.parse("novalue")).hasMessageContaining("key=value");
    assertThatThrownBy(() -> Labels.parse("=x")).hasMessageContaining("key=value");
    assertThatThrownBy(() -> Labels.parse("1os=x")).hasMessageContaining("must start with a letter");
    assertThatThrownBy(() -> Labels.parse("db_major=sixteen")).hasMessageContaining("whole number");
    assertThatThrownBy(() -> Labels.parse("a=b\u0000")).hasMessageContaining("control character");
    // A label is stored and shown as given: one named as a secret is refused, its value never repeated.
    for (String secret : new String[] {"password=Sekr1t", "api.key=Sekr1t", "PGPASSWORD=Sekr1t", "session_token=Sekr1t"}) {
      assertThatThrownBy(() -> Labels.parse(secret)).as(secret).hasMessageContaining("names a secret")
          .message().doesNotContain("Sekr1t");
    }
    assertThat(Labels.parse("step=primary-key-lookup").getValue()).isEqualTo("primary-key-lookup");
  }
}
