package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Verdict;
import dev.benchlake.core.Json;
import dev.benchlake.core.raw.ResourceMetric;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The per-operation resource figures (issue 48 item 3) against numpy and scipy
 * ({@code analysis/src/test/python/make_resources_reference.py}): each side's level, θ and its 95 %
 * interval by the verdict's own analysis, the change in the figure's unit; what was not measured
 * says so with why, never 0; and the one sentence of a step called faster or slower.
 */
class ResourceFiguresTest {
  private static final JsonNode REFERENCE = reference();

  private static JsonNode reference() {
    try (InputStream in = ResourceFiguresTest.class.getResourceAsStream("resources_reference.json")) {
      return Json.mapper().readTree(in);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Each side's values of a reference case, by run id {@code b1…}, {@code c1…}. */
  private static Sides<Map<String, Double>> byRun(JsonNode c) {
    return Sides.by(side -> {
      Map<String, Double> values = new LinkedHashMap<>();
      JsonNode list = c.get(side.label());
      for (int i = 0; i < list.size(); i++) {
        values.put(side.label().charAt(0) + Integer.toString(i + 1), list.get(i).asDouble());
      }
      return values;
    });
  }

  private static void assertMatches(ResourceFigure f, JsonNode c) {
    assertThat(f.level().baseline()).isCloseTo(c.get("level_baseline").asDouble(), within(1e-9));
    assertThat(f.level().candidate()).isCloseTo(c.get("level_candidate").asDouble(), within(1e-9));
    assertThat(f.ratio()).isCloseTo(c.get("ratio").asDouble(), within(1e-12));
    assertThat(f.ratioCi95().low()).isCloseTo(c.get("ratio_ci95").get(0).asDouble(), within(1e-9));
    assertThat(f.ratioCi95().high()).isCloseTo(c.get("ratio_ci95").get(1).asDouble(), within(1e-9));
    assertThat(f.change()).isCloseTo(c.get("change").asDouble(), within(1e-9));
    assertThat(f.changeCi95().low()).isCloseTo(c.get("change_ci95").get(0).asDouble(), within(1e-8));
    assertThat(f.changeCi95().high()).isCloseTo(c.get("change_ci95").get(1).asDouble(), within(1e-8));
  }

  /** The duet's keys: run bi and ci ran in round i. */
  private static PairedByKey rounds(int n) {
    Map<String, String> keys = new HashMap<>();
    for (int i = 1; i <= n; i++) {
      keys.put("b" + i, "round=" + i);
      keys.put("c" + i, "round=" + i);
    }
    return new PairedByKey(keys);
  }

  @Test
  void unpairedAndPairedFiguresMatchNumpyAndScipy() {
    ResourceFigure cpu = ResourceFigure.of(ResourceMetric.SERVER_CPU_US_PER_OP, byRun(REFERENCE.get("unpaired_cpu")),
        null, EffectMethod.UNPAIRED);
    assertMatches(cpu, REFERENCE.get("unpaired_cpu"));
    assertThat(cpu.moved()).isTrue();
    assertThat(cpu.changeText()).isEqualTo("+8.01 µs [+2.13, +14.5]");

    ResourceFigure cs = ResourceFigure.of(ResourceMetric.SERVER_CS_PER_OP, byRun(REFERENCE.get("unpaired_cs")), null,
        EffectMethod.UNPAIRED);
    assertMatches(cs, REFERENCE.get("unpaired_cs"));
    assertThat(cs.moved()).isFalse();
    assertThat(cs.unchanged()).isTrue();

    ResourceFigure paired = ResourceFigure.of(ResourceMetric.SERVER_CPU_US_PER_OP,
        byRun(REFERENCE.get("paired_cpu")), null, rounds(4).leastSquares());
    assertMatches(paired, REFERENCE.get("paired_cpu"));
  }

  @Test
  void whatASideDidNotMeasureSaysSoWithWhyAndIsNeverZero() {
    JsonNode manifest = Json.mapper().valueToTree(Map.of("step_resources", List.of(Map.of("step", "point-select",
        "task_names", List.of("point-select"), "not_measured", Map.of("io_read_bytes",
            "pg_stat_io needs PostgreSQL 16; this is 14")))));
    Map<ResourceMetric, Map<String, Double>> rows = new EnumMap<>(ResourceMetric.class);
    rows.put(ResourceMetric.IO_READ_BYTES_PER_OP, Map.of("c1", 800.0, "c2", 820.0));
    rows.put(ResourceMetric.ROLLBACKS_PER_OP, Map.of("b1", 0.0, "b2", 0.0, "c1", 0.0, "c2", 0.0));
    ResourceFigures step = ResourceFigures.forStep("point-select", rows, Sides.of(List.of("b1", "b2"),
        List.of("c1", "c2")), Map.of("b1", manifest, "b2", manifest), Pairing.UNPAIRED);

    ResourceFigure io = step.figure(ResourceMetric.IO_READ_BYTES_PER_OP);
    assertThat(io.level().baseline()).isNull();
    assertThat(io.changeText()).isEqualTo("not measured on the baseline: pg_stat_io needs PostgreSQL 16; this is 14");
    assertThat(step.rows().get(ResourceMetric.IO_READ_BYTES_PER_OP.ordinal())).containsExactly(
        "I/O bytes read per operation (pg_stat_io)", "not measured", "810 bytes",
        "not measured on the baseline: pg_stat_io needs PostgreSQL 16; this is 14", Format.DASH);
    // No row on either side (no reason recorded): not measured, never 0.
    assertThat(step.figure(ResourceMetric.WAL_BYTES_PER_OP).changeText()).isEqualTo(
        "not measured on either side");
    assertThat(step.figure(ResourceMetric.ROLLBACKS_PER_OP).changeText()).isEqualTo("unchanged (0 in every run)");

    com.fasterxml.jackson.databind.node.ObjectNode json = Json.mapper().createObjectNode();
    step.json(json, null);
    JsonNode ioJson = json.get("figures").get(ResourceMetric.IO_READ_BYTES_PER_OP.ordinal());
    assertThat(ioJson.get("baseline").isNull()).isTrue();
    assertThat(ioJson.get("not_measured").asText()).startsWith("not measured on the baseline: pg_stat_io");
    assertThat(json.get("descriptive").asBoolean()).isTrue();

    assertThat(ResourceFigures.forStep("point-select", null, Sides.of(List.of("b1"), List.of("c1")), Map.of(),
        Pairing.UNPAIRED)).as("runs without any figure say nothing").isNull();
  }

  @Test
  void aCallNamesItsLargestPerOperationChangeWithTheCallsOwnFigure() {
    Map<ResourceMetric, Sides<Map<String, Double>>> byRun = new EnumMap<>(ResourceMetric.class);
    byRun.put(ResourceMetric.SERVER_CPU_US_PER_OP, byRun(REFERENCE.get("unpaired_cpu")));
    byRun.put(ResourceMetric.SERVER_CS_PER_OP, byRun(REFERENCE.get("unpaired_cs")));
    ResourceFigures figures = ResourceFigures.of(byRun, Sides.of(Map.of(), Map.of()), Pairing.UNPAIRED);

    assertThat(figures.sentence("PostgreSQL 17", "point-select", Verdict.SLOWER, 1.081, new Range(1.05, 1.112)))
        .isEqualTo("PostgreSQL 17 is 8.1% [5.0, 11.2] slower on point-select: server CPU per operation +8.01 µs"
            + " [+2.13, +14.5], server context switches per operation unchanged.");
    // A faster latency (θ below 1) reads its sizes from the far bound.
    assertThat(figures.sentence("PostgreSQL 17", "read", Verdict.FASTER, 0.919, new Range(0.888, 0.95)))
        .startsWith("PostgreSQL 17 is 8.1% [5.0, 11.2] faster on read: server CPU per operation +8.01 µs");
    assertThat(figures.sentence("PostgreSQL 17", "read", Verdict.EQUIVALENT, 1.0, new Range(0.99, 1.01))).isNull();
    assertThat(figures.sentence("PostgreSQL 17", "read", Verdict.INCONCLUSIVE, 1.1, new Range(0.9, 1.3))).isNull();

    Map<ResourceMetric, Sides<Map<String, Double>>> still = new EnumMap<>(ResourceMetric.class);
    still.put(ResourceMetric.SERVER_CS_PER_OP, byRun(REFERENCE.get("unpaired_cs")));
    assertThat(ResourceFigures.of(still, Sides.of(Map.of(), Map.of()), Pairing.UNPAIRED)
        .sentence("17", "write", Verdict.SLOWER, 1.2, new Range(1.1, 1.3)))
        .isEqualTo("17 is 20.0% [10.0, 30.0] slower on write; no per-operation figure moved (server CPU per operation"
            + " not measured, server context switches per operation unchanged).");
  }
}
