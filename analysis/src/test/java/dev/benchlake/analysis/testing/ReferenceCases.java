package dev.benchlake.analysis.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import dev.benchlake.warehouse.Warehouse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * The whole comparisons of {@code testing/cases.json}, made by
 * {@code analysis/src/test/python/make_reference.py}: runs, tasks and the figures numpy and
 * scipy give for them.
 */
public final class ReferenceCases {
  private static final JsonNode ROOT = load();
  private static final Map<String, Warehouse> WAREHOUSES = new HashMap<>();
  private static Path folder;

  private ReferenceCases() {}

  /** A comparison: its settings, runs, where its tasks are, and the expected figures. */
  public record Case(String name, JsonNode settings, List<WarehouseFixture.Run> runs, String tasksOf, JsonNode expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  public static List<Case> all() {
    List<Case> cases = new ArrayList<>();
    for (JsonNode c : ROOT.get("cases")) {
      List<WarehouseFixture.Run> runs = new ArrayList<>();
      for (JsonNode r : c.get("runs")) {
        runs.add(new WarehouseFixture.Run(r.get("run_id").asText(), Map.of("os", r.get("os").asText())));
      }
      String tasksOf = c.get("tasks").isArray() ? c.get("name").asText() : c.get("tasks").asText().replace("tasks of ", "");
      cases.add(new Case(c.get("name").asText(), c.get("settings"), runs, tasksOf, c.get("expected")));
    }
    return cases;
  }

  public static Case named(String name) {
    return all().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
  }

  /** The tasks of the case named {@code name} (which carries them). */
  public static List<WarehouseFixture.Task> tasks(String name) {
    for (JsonNode c : ROOT.get("cases")) {
      if (c.get("name").asText().equals(name)) {
        List<WarehouseFixture.Task> tasks = new ArrayList<>();
        for (JsonNode t : c.get("tasks")) {
          tasks.add(new WarehouseFixture.Task(t.get(0).asText(), t.get(1).asText(),
              t.get(2).isNull() ? null : t.get(2).asLong(), t.get(3).asBoolean(), t.get(4).asBoolean(), text(t.get(5)),
              text(t.get(6)), t.get(7).asLong(), t.get(8).asLong()));
        }
        return tasks;
      }
    }
    throw new IllegalArgumentException("no case " + name);
  }

  /** A group's expected errors, in the order of the reference (most frequent first). */
  public static Map<String, Long> errors(JsonNode group) {
    Map<String, Long> errors = new java.util.LinkedHashMap<>();
    group.get("errors_by_code").fields().forEachRemaining(e -> errors.put(e.getKey(), e.getValue().asLong()));
    return errors;
  }

  /**
   * The warehouse holding the tasks of {@code c}, written once per test JVM into a temporary
   * folder (several cases share the same tasks).
   */
  public static synchronized Warehouse warehouse(SparkSession spark, Case c) {
    return WAREHOUSES.computeIfAbsent(c.tasksOf(), name -> {
      try {
        if (folder == null) {
          folder = Files.createTempDirectory("benchlake-analysis-cases");
          folder.toFile().deleteOnExit();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return WarehouseFixture.write(spark, folder.resolve(name).toString(), named(name).runs(), tasks(name));
    });
  }

  private static String text(JsonNode node) {
    return node.isNull() ? null : node.asText();
  }

  private static JsonNode load() {
    try (InputStream in = ReferenceCases.class.getResourceAsStream("cases.json")) {
      return Json.mapper().readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
