package dev.benchlake.analysis.html;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.Json;
import org.junit.jupiter.api.Test;

class ScriptJsonTest {
  @Test
  void nothingInTheTextCanEndTheScriptElementAndTheStringsComeBackIntact() throws Exception {
    String hostile = "</script><script>alert(1)</script><!-- & \u2028\u2029 é \"quoted\" \\";
    ObjectNode node = Json.mapper().createObjectNode().put("label", hostile).put("n", 1.5);
    node.putArray("list").add(hostile);
    String json = ScriptJson.of(node);
    assertThat(json).doesNotContain("<").doesNotContain(">").doesNotContain("&")
        .doesNotContain("\u2028").doesNotContain("\u2029").doesNotContain("\n");
    assertThat(json).contains("\\u003c/script\\u003e");
    JsonNode back = Json.mapper().readTree(json);
    assertThat(back).isEqualTo(node);
    assertThat(back.get("label").asText()).isEqualTo(hostile);
  }
}
