package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.PackageLayers;
import java.io.IOException;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package layers of app (issue 45; the table in app/README.md): every reference from one of its
 * packages to another runs down the layers, so there is no cycle. The duet ({@code study.duet}) is a
 * layer of its own below the studies: it runs pairs and knows nothing of a study's plan, design or
 * file. app may use every other module. Read from the sources ({@link PackageLayers}).
 */
class PackageLayersTest {
  /** What each package may refer to in app, besides itself (every other module is allowed). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "study.duet", Set.of(),
      "chain", Set.of(),
      "batch", Set.of(),
      "study", Set.of("study.duet", "chain"),
      "quickstart", Set.of("study", "study.duet", "chain"),
      PackageLayers.ROOT, Set.of("batch", "chain", "quickstart", "study", "study.duet"));

  @Test
  void everyReferenceRunsDownTheLayers() throws IOException {
    PackageLayers.check(PackageLayersTest.class, "app", MAY_USE, Set.of());
  }

  @Test
  void theLayersThemselvesHaveNoCycle() {
    assertThat(PackageLayers.bottomUp(MAY_USE)).hasSize(MAY_USE.size());
  }
}
