package dev.benchlake.ingest;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;

/**
 * What {@code benchlake ingest} checks of its inputs before it starts Spark: each one there, and
 * each file's format named or told from its head ({@link InputResolver}, saying nothing: the
 * ingest says its choices when it resolves them again). A missing path or an unknown format is
 * then one line within a second, not after Spark's start.
 */
public final class InputCheck {
  private InputCheck() {}

  /** @throws BadInputException naming the input and the cause */
  public static void check(IngestRequest request) throws IOException {
    InputResolver.resolve(request.withMessages(message -> {}));
  }
}
