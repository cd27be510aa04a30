package dev.benchlake.analysis.stats;

import dev.benchlake.core.cli.BadInputException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How p-values are adjusted across the steps of one comparison or trend, if at all. */
public enum Correction {
  /** Holm's step-down: family-wise error rate (default). */
  HOLM,
  /** Benjamini–Hochberg: false discovery rate. */
  BH,
  /**
   * None: each p-value as it is, for a single pre-registered step or family (named before the data
   * were seen), where Holm over many steps would leave it a fraction of its power. Over N steps of
   * no real change it makes about α·N false calls, which a report using it says
   * ({@code report.Uncorrected}).
   */
  NONE;

  /** The name in commands and reports: {@code holm}, {@code bh}, {@code none}. */
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** As a sentence names it: {@code Holm's correction}. */
  public String inWords() {
    return switch (this) {
      case HOLM -> "Holm's correction";
      case BH -> "the Benjamini–Hochberg correction";
      case NONE -> "no correction";
    };
  }

  /** Every {@link #label()}, in declaration order. */
  public static List<String> labels() {
    return Arrays.stream(values()).map(Correction::label).toList();
  }

  /** {@code holm, bh, none}: for messages and help. */
  public static String names() {
    return String.join(", ", labels());
  }

  /**
   * The correction a user named, in any case.
   *
   * @throws BadInputException naming the choices
   */
  public static Correction parse(String text) {
    String name = text == null ? "" : text.trim();
    for (Correction c : values()) {
      if (c.label().equalsIgnoreCase(name)) {
        return c;
      }
    }
    throw new BadInputException("--correction '" + text + "' is not one of " + names());
  }

  public double[] adjust(double[] p) {
    return switch (this) {
      case HOLM -> MultipleComparisons.holm(p);
      case BH -> MultipleComparisons.benjaminiHochberg(p);
      case NONE -> p.clone();
    };
  }

}
