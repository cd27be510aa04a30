package dev.benchlake.ingest.parse;

import java.util.List;

/**
 * A companion file the driver already read whole (a loadgen manifest, a TestPostgresqlPerf
 * summary): every line is accepted as metadata, so the file still appears in the accounting.
 */
public final class MetadataOnly implements DocumentParser {
  private static final long serialVersionUID = 1L;

  @Override
  public boolean yieldsTasks() {
    return false;
  }

  @Override
  public void parse(List<String> lines, ParseSink sink) {
    for (int i = 0; i < lines.size(); i++) {
      sink.metadata(i + 1);
    }
  }
}
