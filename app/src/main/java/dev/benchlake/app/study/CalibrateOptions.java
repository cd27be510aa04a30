package dev.benchlake.app.study;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Option;

/** What {@code benchlake calibrate} measures: the server, the handicap sizes, the designs, each checked once. */
public final class CalibrateOptions {
  private static final Pattern PERCENT = Pattern.compile("(\\d{1,3}(?:\\.\\d+)?)%");

  @Option(names = "--pg", paramLabel = "MAJOR", defaultValue = "17",
      description = "The embedded PostgreSQL major on both sides (default: ${DEFAULT-VALUE}).")
  int major;

  @Option(names = "--sizes", paramLabel = "P%[,P%...]", defaultValue = "10%",
      description = "Handicap sizes on side b, each above 0%% and at most 100%% (default: ${DEFAULT-VALUE}).")
  String sizes;

  @Option(names = "--designs", paramLabel = "DESIGN[,DESIGN]", defaultValue = "duet,interleaved",
      description = "duet, interleaved or both (default: ${DEFAULT-VALUE}).")
  String designs;

  /** {@code 3%,5%,10%}: shares above 0 and at most 1, in the order given, none twice. */
  List<Double> sizes() {
    List<Double> shares = new ArrayList<>();
    for (String part : sizes.split(",", -1)) {
      Matcher m = PERCENT.matcher(part.strip());
      double share = m.matches() ? Double.parseDouble(m.group(1)) / 100 : Double.NaN;
      if (!(share > 0 && share <= 1) || shares.contains(share)) {
        throw new BadInputException("--sizes: '" + part.strip() + "' is not a handicap size: give percentages "
            + "above 0% and at most 100%, each once (e.g. 5%,10%)");
      }
      shares.add(share);
    }
    return shares;
  }

  /** {@code duet,interleaved}: each once. */
  List<Design> designs() {
    List<Design> all = new ArrayList<>();
    for (String part : designs.split(",", -1)) {
      Design d = List.of(Design.DUET, Design.INTERLEAVED).stream().filter(x -> x.id().equals(part.strip()))
          .findFirst().orElse(null);
      if (d == null || all.contains(d)) {
        throw new BadInputException("--designs: '" + part.strip() + "': give duet, interleaved or both, each once");
      }
      all.add(d);
    }
    return all;
  }
}
