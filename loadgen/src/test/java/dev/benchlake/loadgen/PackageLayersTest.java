package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.ModuleDirs;
import dev.benchlake.core.testing.PackageLayers;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The package layers of loadgen (issue 45; the table in loadgen/README.md): every reference from
 * one of its packages to another runs down the layers, so there is no cycle, and nothing refers to
 * warehouse, ingest, analysis or app (loadgen runs on a client with a JVM and no Spark). Read from
 * the sources ({@link PackageLayers}).
 */
class PackageLayersTest {
  /** What each package may refer to in loadgen, besides itself (core is always allowed). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "db", Set.of(),
      "workload", Set.of(),
      "run", Set.of("db", "workload"),
      PackageLayers.ROOT, Set.of("db", "run", "workload"));

  private static final Set<String> FORBIDDEN_MODULES = Set.of("warehouse", "ingest", "analysis", "app");

  @Test
  void everyReferenceRunsDownTheLayersAndNoneLeavesForWarehouseIngestAnalysisOrApp() throws IOException {
    PackageLayers.check(PackageLayersTest.class, "loadgen", MAY_USE, FORBIDDEN_MODULES);
  }

  @Test
  void theLayersThemselvesHaveNoCycle() {
    assertThat(PackageLayers.bottomUp(MAY_USE)).hasSize(MAY_USE.size());
  }

  /**
   * Within the root package, which the table cannot see: the command serves a session and the
   * session runs each run through {@link SideSession.Runs}, so the session never names the command
   * that builds it (it did: the module's one arrow back up).
   */
  @Test
  void theSessionRunsItsRunsWithoutNamingTheCommandThatServesIt() throws IOException {
    String code = Files.readString(ModuleDirs.of(PackageLayersTest.class)
        .resolve("src/main/java/dev/benchlake/loadgen/SideSession.java"), StandardCharsets.UTF_8)
        .replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
    assertThat(code).doesNotContain("LoadgenCommand");
  }
}
