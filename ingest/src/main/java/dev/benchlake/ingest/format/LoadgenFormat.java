package dev.benchlake.ingest.format;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import dev.benchlake.ingest.source.Bom;
import dev.benchlake.ingest.source.FileTree;
import dev.benchlake.warehouse.WarehouseSchema;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.benchlake.warehouse.fs.Storage;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * benchlake's own loadgen run directories: {@code manifest.json} + {@code tasks.csv}. The run keeps
 * the manifest's run id; a manifest still saying {@code running} (the load generator was killed)
 * is ingested as {@code interrupted}; warm-up tasks are kept with {@code warmup = true}.
 */
public final class LoadgenFormat implements SourceFormat {
  private static final Pattern SERVER_VERSION = Pattern.compile("PostgreSQL (\\d+(?:\\.\\d+)*)");

  @Override
  public String name() {
    return "loadgen";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    if (!probe.lines().isEmpty() && probe.lines().get(0).equals(TaskCsv.HEADER)) {
      return Optional.of("a loadgen tasks.csv header");
    }
    return Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    List<SourcePlan> plans = new ArrayList<>();
    Storage storage = context.storage();
    for (Path path : paths) {
      Path dir = storage.isDirectory(path) ? path : path.getParent();
      if (dir == null || !storage.isFile(new Path(dir, RunDirectory.MANIFEST))) {
        throw new BadInputException(path + ": a loadgen run is a directory with " + RunDirectory.MANIFEST
            + " and " + RunDirectory.TASKS + "; there is no " + RunDirectory.MANIFEST + " beside this file");
      }
      plans.add(planRun(dir, storage));
    }
    return plans;
  }

  /** {@link #plan}, and every other file of a run directory named or found by walking (a README beside the run). */
  @Override
  public Planned planAll(List<Path> paths, PlanContext context) throws IOException {
    List<NotResult> others = new ArrayList<>();
    Storage storage = context.storage();
    for (Path path : paths) {
      if (!storage.isDirectory(path)) {
        continue;
      }
      for (FileStatus entry : storage.list(path)) {
        String name = entry.getPath().getName();
        if (name.equals(RunDirectory.MANIFEST) || RunDirectory.isTasksFile(name)) {
          continue;
        }
        if (entry.isDirectory()) {
          int files = FileTree.countFiles(entry.getPath(), storage);
          others.add(new NotResult(entry.getPath().toString(), "a folder of " + files + " file" + (files == 1 ? "" : "s")
              + " in a loadgen run, whose results are " + RunDirectory.MANIFEST + " and " + RunDirectory.TASKS,
              NotResult.Kind.NOT_A_RESULT, files));
        } else if (entry.isFile()) {
          others.add(new NotResult(entry.getPath().toString(), "not part of a loadgen run: its results are "
              + RunDirectory.MANIFEST + " and " + RunDirectory.TASKS));
        }
      }
    }
    return new Planned(plan(paths, context), others);
  }

  private SourcePlan planRun(Path dir, Storage storage) throws IOException {
    Path manifestFile = new Path(dir, RunDirectory.MANIFEST);
    // A run keeps tasks.csv or its compact form, tasks.csv.gz (loadgen --tasks-file).
    Path tasksFile = new Path(dir, RunDirectory.TASKS);
    if (!storage.isFile(tasksFile) && storage.isFile(new Path(dir, RunDirectory.TASKS_GZ))) {
      tasksFile = new Path(dir, RunDirectory.TASKS_GZ);
    }
    String manifestJson;
    RunManifest manifest;
    try {
      manifestJson = Bom.strip(storage.readString(manifestFile));
      manifest = RunManifest.fromJson(manifestJson);
    } catch (IOException e) {
      throw new BadInputException(manifestFile + ": not a readable loadgen manifest: " + firstLine(e.getMessage()), e);
    }
    if (!storage.isFile(tasksFile)) {
      throw new BadInputException(dir + ": the run has no " + RunDirectory.TASKS);
    }
    if (manifest.status() == null) {
      throw new BadInputException(manifestFile + ": the manifest has no status");
    }
    RunStatus status = manifest.status() == RunStatus.RUNNING ? RunStatus.INTERRUPTED : manifest.status();
    Map<String, String> dims = new HashMap<>();
    if (manifest.workload() != null && manifest.workload().name() != null) {
      dims.put(Labels.WORKLOAD, manifest.workload().name());
    }
    if (manifest.mode() != null) {
      dims.put(Labels.CLIENTS, Integer.toString(manifest.mode().clients()));
    }
    if (manifest.target() != null) {
      if (manifest.target().major() != null) {
        dims.put(Labels.DB_MAJOR, manifest.target().major().toString());
      }
      if (manifest.target().serverVersion() != null) {
        Matcher m = SERVER_VERSION.matcher(manifest.target().serverVersion());
        if (m.find()) {
          dims.put(Labels.DB_VERSION, m.group(1));
        }
      }
    }
    if (manifest.client() != null && manifest.client().host() != null) {
      dims.put(Labels.HOST, manifest.client().host());
    }
    String serverStart = serverStart(manifestFile, manifestJson);
    if (serverStart != null) {
      dims.put(WarehouseSchema.SERVER_START, serverStart);
    }
    Map<String, Object> metadata = Json.mapper().convertValue(manifest, new TypeReference<Map<String, Object>>() { });
    RunInfo run = new RunInfo(status.json(), instant(manifestFile, "started_at", manifest.startedAt()),
        instant(manifestFile, "finished_at", manifest.finishedAt()),
        manifest.labels() == null ? Map.of() : manifest.labels(), dims, Map.of("manifest", metadata));
    return new SourcePlan(name(), List.of(
        PlannedFile.document(manifestFile, new LoadgenManifestParser()),
        PlannedFile.lines(tasksFile, new LoadgenTaskParser(manifest.originEpochNs()))),
        manifest.runId(), false, "", run, null, null, null);
  }

  /**
   * {@code runs.server_start} from the manifest's {@code target.server_start} (written by loadgen
   * from format 2 of the warehouse on): {@code "<postmaster_start_time>|<data_directory>"}, the
   * directory empty when loadgen could not see it; null when the manifest has no start time (an
   * older loadgen): not recorded. Read from the JSON itself so that it does not depend on core's
   * manifest record having the field.
   */
  static String serverStart(Path manifestFile, String manifestJson) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(manifestJson);
    } catch (IOException e) {
      throw new BadInputException(manifestFile + ": not a readable loadgen manifest: " + firstLine(e.getMessage()), e);
    }
    JsonNode start = root == null ? null : root.path("target").path("server_start");
    if (start == null || !start.isObject()) {
      return null;
    }
    JsonNode time = start.get("postmaster_start_time");
    if (time == null || !time.isTextual() || time.asText().isBlank()) {
      return null;
    }
    try {
      Instant.parse(time.asText());
    } catch (DateTimeParseException e) {
      throw new BadInputException(manifestFile + ": target.server_start.postmaster_start_time '" + time.asText()
          + "' is not an ISO-8601 UTC instant");
    }
    JsonNode dir = start.get("data_directory");
    return time.asText() + "|" + (dir == null || dir.isNull() ? "" : dir.asText());
  }

  private static Instant instant(Path file, String field, String text) {
    if (text == null || text.isBlank()) {
      return null;
    }
    try {
      return Instant.parse(text);
    } catch (DateTimeParseException e) {
      throw new BadInputException(file + ": " + field + " '" + text + "' is not an ISO-8601 UTC instant");
    }
  }

  private static String firstLine(String message) {
    if (message == null) {
      return "unreadable";
    }
    int nl = message.indexOf('\n');
    return nl < 0 ? message : message.substring(0, nl);
  }
}
