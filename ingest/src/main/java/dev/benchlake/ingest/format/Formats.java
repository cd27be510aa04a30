package dev.benchlake.ingest.format;

import dev.benchlake.core.cli.BadInputException;
import java.util.List;
import java.util.Optional;

/** The formats benchlake reads, in the order {@code --format auto} tries them. */
public final class Formats {
  private static final List<SourceFormat> ALL = List.of(
      new LoadgenFormat(),
      // Before sysbench: its sb.o files are sysbench output, but after run.sh's two lines.
      new MytoolsFormat(),
      new TestPgPerfFormat(),
      new PgbenchAggFormat(),
      new PgbenchLogFormat(),
      new PgbenchSummaryFormat(),
      new SysbenchFormat(),
      new CsvFormat());

  private Formats() {}

  public static List<SourceFormat> all() {
    return ALL;
  }

  public static List<String> names() {
    return ALL.stream().map(SourceFormat::name).toList();
  }

  /** @throws BadInputException for an unknown name */
  public static SourceFormat named(String name) {
    return ALL.stream().filter(f -> f.name().equals(name)).findFirst()
        .orElseThrow(() -> new BadInputException("unknown format '" + name + "': use auto or one of " + String.join(", ", names())));
  }

  /** The first format whose sniffer accepts {@code probe}, with its reason. */
  public static Optional<Detection> detect(Probe probe) {
    for (SourceFormat format : ALL) {
      Optional<String> why = format.sniff(probe);
      if (why.isPresent()) {
        return Optional.of(new Detection(format, why.get()));
      }
    }
    return Optional.empty();
  }

  public record Detection(SourceFormat format, String reason) {}
}
