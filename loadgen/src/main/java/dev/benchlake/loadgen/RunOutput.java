package dev.benchlake.loadgen;

import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import dev.benchlake.core.raw.StatementPlan;
import dev.benchlake.core.raw.StepHealth;
import dev.benchlake.core.raw.StepMetric;
import dev.benchlake.core.raw.StepResources;
import dev.benchlake.core.raw.StepWindow;
import dev.benchlake.loadgen.run.CsvTaskWriter;
import dev.benchlake.loadgen.run.TaskSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * A run directory while the run goes: the manifest written at the start with status
 * {@code running}, tasks.csv appended by a {@link CsvTaskWriter}, and the manifest rewritten
 * (atomically) once at the end. {@link #finish} may be called from the run's thread or from a
 * shutdown hook; the first call wins. A directory whose manifest still says {@code running} after
 * the process is gone belongs to a run that was killed (ingest treats it as interrupted).
 */
final class RunOutput {
  private final Path dir;
  private final TaskSink sink;
  private RunManifest manifest;
  private boolean finished;

  private RunOutput(Path dir, TaskSink sink, RunManifest manifest) {
    this.dir = dir;
    this.sink = sink;
    this.manifest = manifest;
  }

  /** Creates the run directory with a {@code running} manifest and an empty {@code tasksFile} (tasks.csv or .gz). */
  static RunOutput create(Path dir, RunManifest running, String tasksFile) throws IOException {
    Files.createDirectories(dir);
    running.writeAtomically(RunDirectory.manifest(dir));
    return new RunOutput(dir, new CsvTaskWriter(dir.resolve(tasksFile)), running);
  }

  /** No directory: tasks are counted but not kept (measuring loadgen's own overhead). */
  static RunOutput discarding(RunManifest running) {
    return new RunOutput(null, TaskSink.DISCARD, running);
  }

  Path dir() {
    return dir;
  }

  TaskSink sink() {
    return sink;
  }

  /**
   * Closes tasks.csv (everything queued is written and fsynced) and writes the final manifest.
   * A tasks.csv or a final manifest that could not be written (a full disk) makes the run
   * interrupted with that error; the run directory stays readable either way.
   */
  synchronized RunManifest finish(RunStatus status, String error, RunManifest.Summary summary) {
    if (finished) {
      return manifest;
    }
    finished = true;
    RunStatus finalStatus = status;
    String finalError = error;
    try {
      sink.close();
    } catch (IOException e) {
      finalStatus = RunStatus.INTERRUPTED;
      finalError = "writing tasks.csv failed: " + e.getMessage();
    }
    manifest = manifest.finish(finalStatus, Instant.now().toString(), finalError, summary);
    if (dir != null) {
      try {
        manifest.writeAtomically(RunDirectory.manifest(dir));
      } catch (IOException e) {
        // A full disk: the manifest on disk still says running (it is replaced whole or not at
        // all), which ingest reads as interrupted; the run is interrupted, and says why.
        String why = "the final manifest could not be written in " + dir + " (" + e.getMessage()
            + "): it still says running, which ingest reads as interrupted";
        manifest = manifest.finish(RunStatus.INTERRUPTED, manifest.finishedAt(),
            finalError == null ? why : finalError + "; " + why, summary);
      }
    }
    return manifest;
  }

  /** Keeps the steps' table health in the manifest, for the final write (also after a signal). */
  synchronized void stepHealth(List<StepHealth> steps) {
    if (!finished) {
      manifest = manifest.withStepHealth(steps);
    }
  }

  /** Keeps the steps' resource counters in the manifest, for the final write (as the table health). */
  synchronized void stepResources(List<StepResources> steps) {
    if (!finished) {
      manifest = manifest.withStepResources(steps);
    }
  }

  /**
   * Keeps the steps' windows and their own figures in the manifest, for the final write (as the
   * table health: no file is written while a step's tasks run).
   */
  synchronized void steps(List<StepWindow> windows, List<StepMetric> metrics) {
    if (!finished) {
      manifest = manifest.withSteps(windows, metrics);
    }
  }

  /** Keeps the steps' plans in the manifest, for the final write; null keeps those it has. */
  synchronized void stepPlans(List<StatementPlan> plans) {
    if (!finished && plans != null) {
      manifest = manifest.withStepPlans(plans);
    }
  }

  synchronized boolean finished() {
    return finished;
  }
}
