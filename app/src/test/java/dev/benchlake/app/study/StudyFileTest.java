package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** study.json says whether the study is whole: false from its first write, true only once it finished. */
class StudyFileTest {
  @TempDir
  Path dir;

  private JsonNode read() throws Exception {
    return Json.mapper().readTree(dir.resolve(StudyFile.NAME).toFile());
  }

  private static ObjectNode content(int runs) {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("study_id", "ab-1");
    root.putArray("order");
    for (int i = 0; i < runs; i++) {
      ((com.fasterxml.jackson.databind.node.ArrayNode) root.get("order")).addObject().put("round", i + 1);
    }
    return root;
  }

  @Test
  void incompleteFromTheFirstWriteUntilTheStudyFinished() throws Exception {
    StudyFile file = new StudyFile(dir);
    file.write(content(0));
    assertThat(read().get("complete").asBoolean(true)).isFalse();
    assertThat(read().has("cut_short")).isFalse();
    file.write(content(2));
    assertThat(read().get("complete").asBoolean(true)).isFalse();
    assertThat(read().get("order")).hasSize(2);
    file.complete();
    assertThat(read().get("complete").asBoolean()).isTrue();
    assertThat(read().get("order")).as("the content kept").hasSize(2);
    List<String> keys = new ArrayList<>();
    read().fieldNames().forEachRemaining(keys::add);
    assertThat(keys.get(0)).as("first, where a reader looks").isEqualTo("complete");
  }

  @Test
  void aStudyCutShortSaysHowFarItGotAndWhyAndExitsOne() throws Exception {
    StudyFile file = new StudyFile(dir);
    file.write(content(4));
    CutShort cut = new CutShort(2, 5, false, "side b (r3-b on CPUs 1) was killed (signal 9)");
    file.cutShort(cut);
    file.write(content(5));
    JsonNode json = read();
    assertThat(json.get("complete").asBoolean(true)).isFalse();
    assertThat(json.get("cut_short").get("after_round").asInt()).isEqualTo(2);
    assertThat(json.get("cut_short").get("of_rounds").asInt()).isEqualTo(5);
    assertThat(json.get("cut_short").get("sentence").asText()).isEqualTo("Cut short after round 2 of 5: side b "
        + "(r3-b on CPUs 1) was killed (signal 9). These results cover rounds 1-2 only.");
    assertThat(json.get("order")).hasSize(5);

    StringWriter err = new StringWriter();
    assertThat(StudyFile.exitCode(cut, "study ab", new PrintWriter(err))).isEqualTo(ExitCode.FAILURE);
    assertThat(err.toString()).isEqualTo("benchlake study ab: cut short after round 2 of 5: side b (r3-b on CPUs 1) "
        + "was killed (signal 9). These results cover rounds 1-2 only." + System.lineSeparator());
    assertThat(StudyFile.exitCode(null, "study ab", new PrintWriter(new StringWriter()))).isEqualTo(ExitCode.OK);
    assertThat(new CutShort(0, 12, true, "interrupted (Ctrl-C or SIGTERM)").sentence())
        .isEqualTo("Cut short before round 1 of at most 12 ended: interrupted (Ctrl-C or SIGTERM).");
    assertThat(new CutShort(1, 3, false, "x.").sentence()).isEqualTo("Cut short after round 1 of 3: x. These results "
        + "cover round 1 only.");
  }
}
