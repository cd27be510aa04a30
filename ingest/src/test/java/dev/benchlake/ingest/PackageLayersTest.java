package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.PackageLayers;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package layers of ingest (issue 27; the table in ingest/README.md): every reference from one
 * of its packages to another runs down the layers, so there is no cycle (formats plan against
 * {@code format.PlanContext}, not the ingest's request), and nothing refers to analysis, loadgen or
 * app. Read from the sources ({@link PackageLayers}).
 */
class PackageLayersTest {
  /** What each package may refer to in ingest, besides itself (core and warehouse are always allowed). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "source", Set.of(),
      "parse", Set.of("source"),
      "format", Set.of("parse", "source"),
      PackageLayers.ROOT, Set.of("format", "parse", "source"),
      "cli", Set.of(PackageLayers.ROOT, "format", "parse", "source"));

  private static final Set<String> FORBIDDEN_MODULES = Set.of("analysis", "loadgen", "app");

  @Test
  void everyReferenceRunsDownTheLayersAndNoneLeavesForAnalysisLoadgenOrApp() throws IOException {
    PackageLayers.check(PackageLayersTest.class, "ingest", MAY_USE, FORBIDDEN_MODULES);
  }

  @Test
  void theLayersThemselvesHaveNoCycle() {
    // Each package's allowed targets must sit strictly below it: a topological order exists.
    assertThat(PackageLayers.bottomUp(MAY_USE)).hasSize(MAY_USE.size());
  }
}
