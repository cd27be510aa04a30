package dev.benchlake.ingest.format;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * One input format: how to recognise it ({@link #sniff}), how the files the user named group into
 * runs ({@link #plan}), and (through the plans) which parser reads each file. The parsing itself
 * lives in pure {@code LineParser}/{@code DocumentParser} classes that know nothing of Spark or of
 * the file system, so they are unit-tested on strings.
 */
public interface SourceFormat {
  /** The {@code --format} name. */
  String name();

  /**
   * Whether {@code probe} looks like this format.
   *
   * @return why it matched (said on stderr when {@code --format auto} chose it), or empty
   */
  Optional<String> sniff(Probe probe);

  /**
   * Groups {@code paths} (files or, for loadgen, run directories) into sources, one per run, and
   * reads what the driver needs before parsing (headers, manifests, companion files), through
   * {@code context.storage()}.
   *
   * @throws dev.benchlake.core.cli.BadInputException naming the file and the cause
   */
  List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException;

  /**
   * {@link #plan}, and the files among {@code paths} (or in the folders named) that the format
   * recognised as not being results: they are listed in the ingest's summary, never skipped silently.
   */
  default Planned planAll(List<Path> paths, PlanContext context) throws IOException {
    return new Planned(plan(paths, context), List.of());
  }

  /** The sources of a format's inputs and the files that are not results. */
  record Planned(List<SourcePlan> sources, List<NotResult> notResults) {
    public Planned {
      sources = List.copyOf(sources);
      notResults = List.copyOf(notResults);
    }
  }
}
