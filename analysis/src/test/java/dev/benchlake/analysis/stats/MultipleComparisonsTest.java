package dev.benchlake.analysis.stats;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class MultipleComparisonsTest {
  static List<JsonNode> families() {
    return Reference.nodes("corrections");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("families")
  void holmAndBenjaminiHochberg(JsonNode family) {
    double[] p = Reference.doubles(family.get("p"));
    assertThat(MultipleComparisons.holm(p)).containsExactly(Reference.doubles(family.get("holm")), Offset.offset(1e-15));
    assertThat(MultipleComparisons.benjaminiHochberg(p)).containsExactly(Reference.doubles(family.get("bh")), Offset.offset(1e-15));
  }

  @Test
  void undefinedTestsStayUndefinedAndDoNotCount() {
    double[] adjusted = MultipleComparisons.holm(new double[] {0.01, Double.NaN, 0.04});
    assertThat(adjusted[0]).isEqualTo(0.02);
    assertThat(adjusted[1]).isNaN();
    assertThat(adjusted[2]).isEqualTo(0.04);
  }
}
