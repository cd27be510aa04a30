package dev.benchlake.core.redaction;

/**
 * Rule 3 of {@link Redaction}: the value that follows an option named as a secret as its own word
 * ({@code --mysql-password VALUE}, {@code --pgsql-password 'two words'}): the next shell word, unless
 * it is an option itself (unquoted and starting with {@code -}: {@code --password --verbose}). An
 * unquoted value runs on to the next option or assignment of its line ({@link Words#echoedValueEnd}).
 * An option quoted on its own is a mention, not given a value ({@code Unknown option: '--pgsql-password'}).
 */
final class OptionValues {
  private OptionValues() {}

  static void find(Words words, Spans spans) {
    String text = words.text();
    if (text.indexOf('-') < 0) {
      return;
    }
    boolean secretNext = false;
    int i = 0;
    while (i < text.length()) {
      if (Character.isWhitespace(text.charAt(i))) {
        i++;
        continue;
      }
      int end = words.shellEnd(i);
      boolean quoted = isQuote(text.charAt(i));
      if (secretNext && (quoted || text.charAt(i) != '-')) {
        int valueEnd = quoted ? end : words.echoedValueEnd(end);
        spans.add(i, valueEnd);
        secretNext = false;
        i = valueEnd;
        continue;
      }
      secretNext = isSecretOption(text, i, end) && !isQuote(text.charAt(end - 1));
      i = end;
    }
  }

  /**
   * Whether {@code text[from, to)} is an option ({@code --pgsql-password}, {@code '--pgsql-password',}: dashes and a
   * name, no value) that names a secret.
   */
  static boolean isSecretOption(String text, int from, int to) {
    int start = from;
    while (start < to && isQuote(text.charAt(start))) {
      start++;
    }
    if (start == to || text.charAt(start) != '-') {
      return false;
    }
    for (int i = start; i < to; i++) {
      if (text.charAt(i) == '=') {
        return false;
      }
    }
    while (start < to && (text.charAt(start) == '-' || isQuote(text.charAt(start)))) {
      start++;
    }
    int end = to;
    while (end > start && (isQuote(text.charAt(end - 1)) || text.charAt(end - 1) == ',' || text.charAt(end - 1) == ':')) {
      end--;
    }
    for (int i = start; i < end; i++) {
      if (!NamedValues.isNameChar(text.charAt(i))) {
        return false; // "-----BEGIN PRIVATE KEY-----", a sentence: not an option
      }
    }
    return end > start && Redaction.namesSecret(text, start, end);
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }
}
