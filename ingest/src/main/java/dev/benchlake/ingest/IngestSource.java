package dev.benchlake.ingest;

import dev.benchlake.ingest.format.SourcePlan;
import dev.benchlake.ingest.source.ScannedFile;
import java.util.ArrayList;
import java.util.List;

/**
 * A source of the ingest pass: its plan, its scanned files and its content key, and the committed
 * runs it replaces (found under its locks, before the pass).
 */
final class IngestSource {
  final SourcePlan plan;
  final List<ScannedFile> files;
  final String key;
  /** The run id of a single-run source; null for a multi-run source until parsed. */
  final String runId;
  final List<String> replacedRunIds = new ArrayList<>();

  IngestSource(SourcePlan plan, List<ScannedFile> files, String key) {
    this.plan = plan;
    this.files = files;
    this.key = key;
    this.runId = plan.multiRun() ? null : plan.runId() != null ? plan.runId() : plan.format() + "-" + key.substring(0, 16);
  }

  /** What messages call it: its folder (a folder's one run), else its first file. */
  String name() {
    return plan.folder() != null ? plan.folder().toString() : files.get(0).path();
  }

  /** The SHA-256 of its data files (not of the files that only check them, nor of companions). */
  List<String> dataHashes() {
    List<String> hashes = new ArrayList<>();
    for (int f = 0; f < files.size(); f++) {
      if (plan.files().get(f).role() == SourcePlan.Role.DATA) {
        hashes.add(files.get(f).sha256());
      }
    }
    return hashes;
  }
}
