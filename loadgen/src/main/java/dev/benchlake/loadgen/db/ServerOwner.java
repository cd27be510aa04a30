package dev.benchlake.loadgen.db;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.Json;
import dev.benchlake.core.ProcessIdentity;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who started an embedded server: the file {@value #FILE} in its cluster's folder, written before
 * the server starts. The server is a process of its own and outlives a JVM killed with {@code kill
 * -9}; this file is how whoever comes next (the duet's coordinator when a side died, the next
 * server start, {@code study clean}) tells such an orphan from a server whose owner still runs:
 * the owner's pid and start time ({@link ProcessIdentity}), so that a pid the kernel has given to
 * another process since is not taken for the owner, and the study it ran for, to say whose it was.
 *
 * @param owner the JVM that started the server
 * @param study the study folder it ran for ({@value #STUDY_PROPERTY}), or null
 */
public record ServerOwner(ProcessIdentity owner, String study) {
  /** The file's name, in the cluster's folder (beside {@code data/}). */
  public static final String FILE = "benchlake-owner.json";
  /** The system property naming the study folder this JVM runs for: a duet's side, a study's coordinator. */
  public static final String STUDY_PROPERTY = "benchlake.study";

  /** This JVM, for the study {@value #STUDY_PROPERTY} names. */
  static ServerOwner ofThisProcess() {
    return new ServerOwner(ProcessIdentity.current(), System.getProperty(STUDY_PROPERTY));
  }

  /** Writes the file into {@code clusterDir} (whole or not at all). */
  void write(Path clusterDir) throws IOException {
    ObjectNode node = Json.mapper().createObjectNode();
    node.put("owner_pid", owner.pid());
    node.put("owner_start", owner.startTicks());
    if (study != null) {
      node.put("study", study);
    }
    AtomicFiles.writeString(clusterDir.resolve(FILE), Json.mapper().writeValueAsString(node) + "\n");
  }

  /** The owner {@code clusterDir} records; empty when it records none (a cluster of an earlier benchlake) or cannot be read. */
  public static Optional<ServerOwner> read(Path clusterDir) {
    Path file = clusterDir.resolve(FILE);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try {
      JsonNode node = Json.mapper().readTree(file.toFile());
      return Optional.of(new ServerOwner(new ProcessIdentity(node.get("owner_pid").asLong(),
          node.get("owner_start").asLong()), node.hasNonNull("study") ? node.get("study").asText() : null));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }
}
