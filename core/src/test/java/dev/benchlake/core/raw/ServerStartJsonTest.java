package dev.benchlake.core.raw;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** {@code target.server_start}: a contract with ingest, so its JSON shape is pinned here. */
class ServerStartJsonTest {
  private static RunManifest.Target target(RunManifest.ServerStart start) {
    return new RunManifest.Target("jdbc:postgresql://localhost:5432/postgres", true, "PostgreSQL 17.5", 17,
        new TreeMap<>(), start);
  }

  @Test
  void bothFieldsAreWrittenUnderTheirContractNames() throws IOException {
    JsonNode json = Json.mapper().readTree(Json.mapper().writeValueAsString(
        target(new RunManifest.ServerStart("2026-12-01T11:45:15.123456Z", "/tmp/benchlake-pg17-1/data"))));
    assertThat(json.get("server_start").toString()).isEqualTo(
        "{\"postmaster_start_time\":\"2026-12-01T11:45:15.123456Z\",\"data_directory\":\"/tmp/benchlake-pg17-1/data\"}");
  }

  @Test
  void anUnreadableDataDirectoryIsAnExplicitNull() throws IOException {
    JsonNode json = Json.mapper().readTree(Json.mapper().writeValueAsString(
        target(new RunManifest.ServerStart("2026-12-01T11:45:15Z", null))));
    assertThat(json.get("server_start").has("data_directory")).isTrue();
    assertThat(json.get("server_start").get("data_directory").isNull()).isTrue();
  }

  @Test
  void aManifestFromBeforeTheFieldReadsAsUnknownAndWritesAsBefore() throws IOException {
    RunManifest.Target old = Json.mapper().readValue(
        "{\"jdbc_url\":\"jdbc:postgresql://h/db\",\"embedded\":false,\"server_version\":\"x\",\"major\":16,"
            + "\"settings\":{}}", RunManifest.Target.class);
    assertThat(old.serverStart()).isNull();
    assertThat(Json.mapper().writeValueAsString(old)).doesNotContain("server_start");
  }

  @Test
  void theFieldIsReadBack() throws IOException {
    RunManifest.ServerStart start = new RunManifest.ServerStart("2026-12-01T11:45:15Z", null);
    assertThat(Json.mapper().readValue(Json.mapper().writeValueAsString(target(start)), RunManifest.Target.class)
        .serverStart()).isEqualTo(start);
  }
}
