package dev.benchlake.core.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunManifestTest {

  static RunManifest sample() {
    TreeMap<String, Object> parameters = new TreeMap<>();
    parameters.put("scale", 10);
    parameters.put("random_seed", 42L);
    return new RunManifest(
        RunManifest.FORMAT_VERSION,
        "2b0c8a0e-5d43-4b8f-9d55-3f1c2d9b7a10",
        new RunManifest.Tool("benchlake-loadgen", "0.1.0 (git 0123456789ab)"),
        "2026-11-29T10:00:00Z",
        "2026-11-29T10:01:00Z",
        1_795_946_400_000_000_000L,
        RunStatus.COMPLETE,
        null,
        new RunManifest.Workload("select-update", List.of("select-update"), parameters),
        new RunManifest.Mode("burst", 100, 5000L, null, 0.0, null, null, 15.0),
        new RunManifest.Target("jdbc:postgresql://localhost:5432/postgres", true,
            "PostgreSQL 17.5 on x86_64-pc-linux-gnu", 17, new TreeMap<>(Map.of("max_connections", "300"))),
        new RunManifest.Client("bench-1", "Linux", "6.1.0", "amd64", 2, 25_769_803_776L, "17.0.15 (Debian)"),
        new TreeMap<>(Map.of("os", "linux")),
        new RunManifest.Summary(5000, 4992, 8, Map.of("08001", 8L)));
  }

  @Test
  void matchesTheGoldenFile() throws IOException {
    try (InputStream in = getClass().getResourceAsStream("manifest-golden.json")) {
      String golden = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      assertThat(sample().toJson() + "\n").isEqualTo(golden);
    }
  }

  @Test
  void roundTripsThroughAFile(@TempDir Path dir) throws IOException {
    Path file = dir.resolve(RunDirectory.MANIFEST);
    sample().writeAtomically(file);
    // Compared as JSON: Map<String, Object> parameters come back as Jackson's number types.
    assertThat(RunManifest.read(file).toJson()).isEqualTo(sample().toJson());
    assertThat(Files.list(dir)).containsExactly(file);
  }

  @Test
  void toleratesUnknownFieldsButNotANewerFormat() throws IOException {
    String json = sample().toJson().replaceFirst("\\{", "{\"from_the_future\": 1,");
    assertThat(RunManifest.fromJson(json).runId()).isEqualTo(sample().runId());
    String newer = sample().toJson().replace("\"format_version\" : 1", "\"format_version\" : 99");
    assertThatThrownBy(() -> RunManifest.fromJson(newer)).hasMessageContaining("newer");
  }
}
