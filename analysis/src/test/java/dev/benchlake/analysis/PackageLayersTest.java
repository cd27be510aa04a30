package dev.benchlake.analysis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.PackageLayers;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package layers of analysis (issue 27; the table in analysis/README.md): every reference from
 * one of its packages to another runs down the layers, so there is no cycle, and nothing refers to
 * ingest, loadgen or app. Read from the sources ({@link PackageLayers}).
 */
class PackageLayersTest {
  /** What each package may refer to in analysis, besides itself (core and warehouse are always allowed). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "stats", Set.of(),
      "html", Set.of(),
      "engine", Set.of("stats"),
      "report", Set.of("stats"),
      "confounders", Set.of("report", "stats"),
      "compare", Set.of("stats", "engine", "html", "report", "confounders"),
      "trend", Set.of("stats", "engine", "html", "report", "confounders"),
      "history", Set.of("stats", "html", "report", "confounders", "trend"),
      "cli", Set.of("stats", "engine", "html", "report", "confounders", "compare", "trend", "history"));

  private static final Set<String> FORBIDDEN_MODULES = Set.of("ingest", "loadgen", "app");

  @Test
  void everyReferenceRunsDownTheLayersAndNoneLeavesForIngestLoadgenOrApp() throws IOException {
    PackageLayers.check(PackageLayersTest.class, "analysis", MAY_USE, FORBIDDEN_MODULES);
  }

  @Test
  void theLayersThemselvesHaveNoCycle() {
    // Each package's allowed targets must sit strictly below it: a topological order exists.
    assertThat(PackageLayers.bottomUp(MAY_USE)).hasSize(MAY_USE.size());
  }
}
