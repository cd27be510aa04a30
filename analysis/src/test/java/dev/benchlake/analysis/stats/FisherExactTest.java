package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class FisherExactTest {
  static List<JsonNode> tables() {
    return Reference.nodes("fisher");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tables")
  void matchesScipy(JsonNode table) {
    double p = FisherExact.twoSided(table.get("errors_a").asLong(), table.get("ok_a").asLong(),
        table.get("errors_b").asLong(), table.get("ok_b").asLong());
    assertClose("p", p, table.get("p").asDouble(), 1e-9);
  }
}
