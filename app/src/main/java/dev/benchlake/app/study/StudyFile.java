package dev.benchlake.app.study;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.core.AtomicFiles;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A study's study.json, which says whether the study is whole: {@code "complete": false} from its
 * first write, before the first run, until the study has finished (its runs, its ingest, its
 * reports), then {@code true}; a study that stopped early (a side died, a run failed, it was
 * interrupted) also says how far it got and why ({@code cut_short}, {@link CutShort}). A study
 * killed outright keeps {@code false}: a folder never looks finished when it is not. Every write
 * is whole or not at all ({@link AtomicFiles}), and may come from a shutdown hook while the study
 * writes too: the last content is rewritten with the new state, never a half of each.
 */
public final class StudyFile {
  /** The file's name in the study's folder. */
  public static final String NAME = "study.json";

  private final Path file;
  private ObjectNode content = Json.mapper().createObjectNode();
  private boolean complete;
  private CutShort cutShort;

  /** @param dir the study's folder */
  public StudyFile(Path dir) {
    this.file = dir.resolve(NAME);
  }

  public Path path() {
    return file;
  }

  /** Writes {@code root} (the study's plan, design and runs so far) with the study's state. */
  public synchronized void write(ObjectNode root) {
    content = root.deepCopy();
    flush();
  }

  /** Records that the study stopped early, and why. */
  public synchronized void cutShort(CutShort cut) {
    cutShort = cut;
    flush();
  }

  /** Records that the study finished: {@code complete: true}. */
  public synchronized void complete() {
    complete = true;
    flush();
  }

  /** What it last recorded of a study cut short; null while none. */
  public synchronized CutShort cutShortSoFar() {
    return cutShort;
  }

  /**
   * A study command's exit code: 0 for a study that finished; 1 for one cut short, whose reason
   * goes to stderr in one line ({@code benchlake study ab: cut short after round …}).
   */
  public static int exitCode(CutShort cut, String command, java.io.PrintWriter err) {
    if (cut == null) {
      return dev.benchlake.core.cli.ExitCode.OK;
    }
    String sentence = cut.sentence();
    err.println("benchlake " + command + ": " + Character.toLowerCase(sentence.charAt(0)) + sentence.substring(1));
    err.flush();
    return dev.benchlake.core.cli.ExitCode.FAILURE;
  }

  private void flush() {
    ObjectNode root = Json.mapper().createObjectNode();
    root.put("complete", complete);
    if (cutShort != null) {
      cutShort.json(root.putObject("cut_short"));
    }
    content.fields().forEachRemaining(f -> {
      if (!f.getKey().equals("complete") && !f.getKey().equals("cut_short")) {
        root.set(f.getKey(), f.getValue());
      }
    });
    try {
      AtomicFiles.writeString(file, Json.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("writing " + file, e);
    }
  }
}
