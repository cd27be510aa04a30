package dev.benchlake.analysis.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.DecimalNode;
import dev.benchlake.core.Json;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.MathContext;

/**
 * The layout and the numbers of benchlake's report JSON files (report.json, trend.json): objects
 * one key per line, arrays on one line, two-space indent, {@code \n} line ends; numbers as
 * decimals rounded half-even, without trailing zeros, and {@code null} for what is undefined (never
 * NaN or Infinity, which JSON does not have).
 */
public final class JsonText {
  private JsonText() {}

  /** The JSON text of {@code root}, ending with a newline. */
  public static String pretty(JsonNode root) {
    DefaultPrettyPrinter printer = new DefaultPrettyPrinter(
        Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER))
        .withObjectIndenter(new DefaultIndenter("  ", "\n"))
        .withArrayIndenter(DefaultPrettyPrinter.FixedSpaceIndenter.instance);
    try {
      return Json.mapper().writer(printer).writeValueAsString(root) + "\n";
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code value} rounded by {@code context}; null when it is null, NaN or infinite. */
  public static DecimalNode rounded(Double value, MathContext context) {
    return value == null || !Double.isFinite(value) ? null : DecimalNode.valueOf(decimal(new BigDecimal(value).round(context)));
  }

  /** No trailing zeros, and no exponent for whole numbers (123000, not 1.23E+5). */
  public static BigDecimal decimal(BigDecimal value) {
    BigDecimal stripped = value.stripTrailingZeros();
    return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
  }
}
