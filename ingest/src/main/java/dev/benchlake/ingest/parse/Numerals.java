package dev.benchlake.ingest.parse;

import dev.benchlake.warehouse.RejectType;
import java.util.Locale;

/**
 * A number as a result file writes it, read one way by every parser whose fields may hold any
 * text (CSV cells, pgbench aggregate fields, mytools summary figures): a plain decimal
 * ({@code 12}, {@code -0.5}, {@code .25}, {@code 1.5e-3}), finite and not so small that a double
 * holds it as 0. Anything else is a typed reject, never a value: no tool writes it, so storing
 * what Java makes of it would silently reinterpret the file.
 *
 * <p>Why not {@code Double.parseDouble} alone: it also takes {@code NaN}, {@code Infinity}, hex
 * ({@code 0x1p3} is 8), a type suffix ({@code 1d}, {@code 2f}) and padding, and turns
 * {@code 1e400} into infinity and {@code 1e-400} into 0. Why not {@code BigDecimal}: its scale is
 * the exponent, so {@code 1E-2147483647} is a "number with 2147483647 decimals", which
 * {@code String.format} then tried to print (an {@link OutOfMemoryError} that killed the JVM).
 * {@link #decimals} counts decimals without it, saturating.
 *
 * <p>Linear in the text; allocates nothing on the accepted path but what {@code parseDouble} does.
 */
public final class Numerals {
  private Numerals() {}

  /**
   * What a field holds: a finite value ({@link #fault} null), or why it is none: the reject's type
   * ({@link RejectType#NUMBER_FORMAT} for what is no decimal, {@link RejectType#OUT_OF_RANGE} for a
   * decimal no double holds, or a word for no finite number) and its words ("is not a number").
   */
  public record Read(double value, RejectType fault, String why) {
    public boolean ok() {
      return fault == null;
    }
  }

  /** Reads {@code text} (blanks around it ignored) as a plain decimal. */
  public static Read decimal(String text) {
    String t = text == null ? "" : text.strip();
    if (!isDecimal(t)) {
      String word = t.toLowerCase(Locale.ROOT).replaceFirst("^[+-]", "");
      if (word.equals("nan") || word.equals("inf") || word.equals("infinity")) {
        return new Read(Double.NaN, RejectType.OUT_OF_RANGE, "is not a finite number");
      }
      return new Read(Double.NaN, RejectType.NUMBER_FORMAT, "is not a number");
    }
    double value = Double.parseDouble(t);
    if (Double.isInfinite(value)) {
      return new Read(Double.NaN, RejectType.OUT_OF_RANGE, "is out of range (beyond ±1.8e308, what a double holds)");
    }
    if (value == 0 && hasNonZeroDigit(t)) {
      return new Read(Double.NaN, RejectType.OUT_OF_RANGE, "is out of range (too small for a double: it would read as 0)");
    }
    return new Read(value, null, null);
  }

  /**
   * Reads {@code text} (blanks around it ignored) as an integer of ASCII digits with an optional
   * {@code -}: {@code Long.parseLong} alone also takes {@code +5} and other scripts' digits
   * ({@code ١٢٣} is 123). Its value is {@link IntegerRead#value}.
   */
  public static IntegerRead integer(String text) {
    String t = text == null ? "" : text.strip();
    int start = t.startsWith("-") ? 1 : 0;
    if (t.length() == start) {
      return new IntegerRead(0, RejectType.NUMBER_FORMAT, "is not an integer");
    }
    for (int i = start; i < t.length(); i++) {
      if (!isDigit(t.charAt(i))) {
        return new IntegerRead(0, RejectType.NUMBER_FORMAT, "is not an integer");
      }
    }
    try {
      return new IntegerRead(Long.parseLong(t), null, null);
    } catch (NumberFormatException e) {
      return new IntegerRead(0, RejectType.OUT_OF_RANGE, "is out of range (beyond ±9223372036854775807)");
    }
  }

  /** An integer field: its value ({@link #fault} null), or why it is none, as {@link Read}. */
  public record IntegerRead(long value, RejectType fault, String why) {
    public boolean ok() {
      return fault == null;
    }
  }

  /**
   * Whether {@code t} is {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?}, ASCII
   * digits only (Java's parser also takes other scripts' digits in some places; no tool writes them).
   */
  static boolean isDecimal(String t) {
    int i = 0;
    int n = t.length();
    if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
      i++;
    }
    int digits = 0;
    while (i < n && isDigit(t.charAt(i))) {
      i++;
      digits++;
    }
    if (i < n && t.charAt(i) == '.') {
      i++;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        digits++;
      }
    }
    if (digits == 0) {
      return false;
    }
    if (i < n && (t.charAt(i) == 'e' || t.charAt(i) == 'E')) {
      i++;
      if (i < n && (t.charAt(i) == '+' || t.charAt(i) == '-')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && isDigit(t.charAt(i))) {
        i++;
        exponentDigits++;
      }
      if (exponentDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  /**
   * The decimals a plain decimal is written with: digits after its point less its exponent, at least
   * 0 ({@code 12.50} 2, {@code 1.5e-3} 4, {@code 1e3} 0), saturating at {@link Integer#MAX_VALUE}
   * (so {@code 1E-2147483647} is a number of very many decimals, not a crash). {@code text} must
   * pass {@link #decimal}.
   */
  public static int decimals(String text) {
    String t = text.strip();
    int e = Math.max(t.indexOf('e'), t.indexOf('E'));
    String mantissa = e < 0 ? t : t.substring(0, e);
    int point = mantissa.indexOf('.');
    long fraction = point < 0 ? 0 : mantissa.length() - point - 1;
    long exponent = e < 0 ? 0 : saturatedInt(t.substring(e + 1));
    return (int) Math.max(0, Math.min(Integer.MAX_VALUE, fraction - exponent));
  }

  /** An exponent's value, clamped to ±2³¹ (more makes no difference to any caller). */
  private static long saturatedInt(String signedDigits) {
    boolean negative = signedDigits.startsWith("-");
    long value = 0;
    for (int i = 0; i < signedDigits.length(); i++) {
      char c = signedDigits.charAt(i);
      if (isDigit(c)) {
        value = Math.min(1L << 31, value * 10 + (c - '0'));
      }
    }
    return negative ? -value : value;
  }

  private static boolean hasNonZeroDigit(String t) {
    int end = Math.max(t.indexOf('e'), t.indexOf('E'));
    for (int i = 0; i < (end < 0 ? t.length() : end); i++) {
      char c = t.charAt(i);
      if (c >= '1' && c <= '9') {
        return true;
      }
    }
    return false;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }
}
