package dev.benchlake.core.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the lines of a batch before the one being checked will have written when it runs
 * ({@link Validated#writes}): an input there need not exist yet (a batch may ingest the run its first
 * line's loadgen writes). A command on its own has nothing before it ({@link #ALONE}).
 */
public record Preflight(List<Path> writtenBefore) {
  public static final Preflight ALONE = new Preflight(List.of());

  public Preflight {
    writtenBefore = List.copyOf(writtenBefore);
  }

  /**
   * Whether a local {@code path} is one an earlier line writes, lies under one, or holds one (an
   * ingest of {@code runs/} after loadgens into {@code runs/a} and {@code runs/b}).
   */
  public boolean writtenBefore(Path path) {
    Path p = path.toAbsolutePath().normalize();
    return writtenBefore.stream().anyMatch(w -> p.startsWith(w) || w.startsWith(p));
  }

  /** This one with {@code more} written too (after a line that writes them). */
  public Preflight and(List<Path> more) {
    List<Path> all = new ArrayList<>(writtenBefore);
    all.addAll(more);
    return new Preflight(all);
  }
}
