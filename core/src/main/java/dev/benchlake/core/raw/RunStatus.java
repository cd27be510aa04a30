package dev.benchlake.core.raw;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** How a run ended, as recorded in its manifest and in the warehouse. */
public enum RunStatus {
  /** Still running, or killed before it could say otherwise (after a crash this means interrupted). */
  RUNNING,
  /** Ran to its planned end. */
  COMPLETE,
  /** Stopped early (Ctrl-C, kill); every complete line of tasks.csv is valid. */
  INTERRUPTED,
  /** Could not run (set-up failed); the manifest's {@code error} says why. */
  FAILED;

  @JsonValue
  public String json() {
    return name().toLowerCase(Locale.ROOT);
  }
}
