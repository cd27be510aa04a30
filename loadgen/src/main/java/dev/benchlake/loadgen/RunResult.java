package dev.benchlake.loadgen;

import dev.benchlake.core.raw.RunManifest;
import dev.benchlake.core.raw.RunStatus;
import java.nio.file.Path;
import java.util.List;

/**
 * The outcome of {@link Loadgen#run}.
 *
 * @param runDir the run directory, or null when tasks were not recorded
 * @param manifest the final manifest (as written, when written)
 * @param steps one result per step that ran
 */
public record RunResult(Path runDir, RunManifest manifest, List<StepResult> steps) {
  public RunStatus status() {
    return manifest.status();
  }
}
