package dev.benchlake.warehouse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.PackageLayers;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package layers of warehouse (issue 45; the table in warehouse/README.md): every reference
 * from one of its packages to another runs down the layers, so there is no cycle (the checks sit
 * below the Kernel reader that runs them, and the writers above both), and nothing refers to
 * ingest, analysis, loadgen or app. Read from the sources ({@link PackageLayers}).
 */
class PackageLayersTest {
  /** What each package may refer to in warehouse, besides itself (core is always allowed). */
  private static final Map<String, Set<String>> MAY_USE = Map.of(
      "fs", Set.of(),
      PackageLayers.ROOT, Set.of("fs"),
      "check", Set.of(PackageLayers.ROOT, "fs"),
      "kernel", Set.of(PackageLayers.ROOT, "check", "fs"),
      "spark", Set.of(PackageLayers.ROOT, "check", "kernel", "fs"),
      "export", Set.of(PackageLayers.ROOT, "check", "kernel", "fs"),
      "rejects", Set.of(PackageLayers.ROOT, "check", "kernel", "fs"),
      "write", Set.of(PackageLayers.ROOT, "check", "kernel", "fs"),
      "cli", Set.of(PackageLayers.ROOT, "check", "kernel", "spark", "export", "rejects", "write", "fs"));

  private static final Set<String> FORBIDDEN_MODULES = Set.of("ingest", "analysis", "loadgen", "app");

  @Test
  void everyReferenceRunsDownTheLayersAndNoneLeavesForIngestAnalysisLoadgenOrApp() throws IOException {
    PackageLayers.check(PackageLayersTest.class, "warehouse", MAY_USE, FORBIDDEN_MODULES);
  }

  @Test
  void stagedAppendNeverCallsBackIntoTheWriterThatCallsIt() throws IOException, URISyntaxException {
    // Within one package no import shows it: read the code itself, comments left out.
    Path module = Path.of(PackageLayersTest.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getParent().getParent();
    Path source;
    try (Stream<Path> files = Files.walk(module.resolve("src/main/java/dev/benchlake/warehouse"))) {
      source = files.filter(p -> p.getFileName().toString().equals("StagedAppend.java")).findFirst().orElseThrow();
    }
    String code = Files.readString(source, StandardCharsets.UTF_8).replaceAll("(?s)/\\*.*?\\*/", "")
        .replaceAll("//[^\n]*", "");
    assertThat(code).doesNotContain("WarehouseWriter");
  }

  @Test
  void theLayersThemselvesHaveNoCycle() {
    // Each package's allowed targets must sit strictly below it: a topological order exists.
    assertThat(PackageLayers.bottomUp(MAY_USE)).hasSize(MAY_USE.size());
  }
}
