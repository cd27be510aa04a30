package dev.benchlake.core.redaction;

/**
 * Rule 2 of {@link Redaction}: the value of a name that names a secret, written {@code NAME=VALUE}
 * ({@code --conf} and {@code -D} settings, {@code PGPASSWORD=…}, libpq's {@code password=…},
 * {@code --pgsql-password=…}) or {@code "NAME": VALUE} (JSON, and Python's {@code 'NAME': VALUE}).
 *
 * <p>Where a {@code NAME=VALUE} value ends is the farthest end of the ways it can be read:
 * <ul>
 *   <li>after {@code ?} or {@code &} it is a query parameter: up to the next {@code &} (a URL's
 *       own parameters are {@link UrlRule}'s);
 *   <li>otherwise it is a shell word ({@code PGPASSWORD='a b'}, {@code "a\"b"}, {@code a\ b},
 *       {@code 'it'\''s'}) or a libpq value ({@code 'it\'s'}), and an unquoted one runs to the next
 *       blank: {@code PGPASSWORD=a;b} echoed is {@code a;b}, not {@code a};
 *   <li>a value that starts a PEM block ({@code -----BEGIN …}) runs to the block's end;
 *   <li>an option's unquoted value ({@code --pgsql-password=two words --pgsql-host=h}) runs to the
 *       next option on its line, as a harness that echoed it without quotes printed it
 *       ({@link Words#echoedValueEnd}).
 * </ul>
 * A JSON value is its string (escapes and all, also when the JSON is itself escaped: {@code
 * \"password\":\"…\"}), or its scalar up to {@code ,}, {@code }}, {@code ]} or a blank.
 */
final class NamedValues {
  private NamedValues() {}

  static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
  }

  /** {@code NAME=VALUE}, except in the parameter lists {@code urls} read. */
  static void assignments(Words words, Spans spans, UrlRule.Found urls) {
    String text = words.text();
    if (text.indexOf('=') < 0) {
      return;
    }
    int[] skip = urls.parameters();
    int section = 0;
    int nameStart = -1;
    int nameEnd = -1; // the last run of name characters, and only blanks since it ended
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      if (isNameChar(c)) {
        if (nameStart < 0 || nameEnd >= 0) {
          nameStart = i;
          nameEnd = -1;
        }
        i++;
        continue;
      }
      if (nameStart >= 0 && nameEnd < 0) {
        nameEnd = i;
      }
      if (c == '=' && nameStart >= 0) {
        while (section < skip.length && skip[section + 1] <= nameStart) {
          section += 2;
        }
        boolean urlParameter = section < skip.length && skip[section] <= nameStart;
        if (!urlParameter && Redaction.namesSecret(text, nameStart, nameEnd)) {
          int valueStart = skipBlanks(text, i + 1);
          int valueEnd = valueEnd(words, nameStart, valueStart);
          add(text, spans, valueStart, valueEnd);
          i = Math.max(valueEnd, i + 1);
          nameStart = -1;
          nameEnd = -1;
          continue;
        }
        nameStart = -1;
        nameEnd = -1;
        i++;
        continue;
      }
      if (c != ' ' && c != '\t') {
        nameStart = -1;
        nameEnd = -1;
      }
      i++;
    }
  }

  private static int valueEnd(Words words, int nameStart, int valueStart) {
    String text = words.text();
    if (valueStart >= text.length()) {
      return valueStart;
    }
    int wordEnd = words.shellEnd(valueStart);
    char before = nameStart > 0 ? text.charAt(nameStart - 1) : ' ';
    if (before == '?' || before == '&') {
      int end = valueStart;
      while (end < wordEnd && text.charAt(end) != '&') {
        end++;
      }
      return end;
    }
    int end = Math.max(wordEnd, words.libpqEnd(valueStart));
    if (text.startsWith(PemBlocks.BEGIN, valueStart)) {
      // The block, and what its last word goes on with (a JSON-escaped key's closing "\n").
      end = Math.max(end, words.shellEnd(PemBlocks.blockEnd(text, valueStart)));
    }
    if (!isQuote(text.charAt(valueStart))) {
      if (text.charAt(nameStart) == '-') {
        end = words.echoedValueEnd(end);
      } else if (isEnvironmentName(text, nameStart, valueStart)) {
        end = words.environmentValueEnd(end);
      }
    }
    return end;
  }

  /** {@code PGPASSWORD}, {@code AWS_SECRET_ACCESS_KEY}: upper-case letters, digits and underscores, as a shell's variables are named. */
  private static boolean isEnvironmentName(String text, int from, int valueStart) {
    int i = from;
    boolean letter = false;
    for (; i < valueStart && text.charAt(i) != '=' && text.charAt(i) != ' ' && text.charAt(i) != '\t'; i++) {
      char c = text.charAt(i);
      if (!(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
      letter |= c >= 'A' && c <= 'Z';
    }
    return letter;
  }

  /**
   * {@code "NAME": VALUE} and {@code 'NAME': VALUE}, the quotes of the name escaped or not
   * ({@code \"NAME\": \"VALUE\"}, JSON inside a JSON string).
   */
  static void quotedNames(Words words, Spans spans) {
    String text = words.text();
    if (text.indexOf(':') < 0 || text.indexOf('"') < 0 && text.indexOf('\'') < 0) {
      return;
    }
    int i = 0;
    while (i < text.length()) {
      char q = text.charAt(i);
      if (q != '"' && q != '\'') {
        i++;
        continue;
      }
      boolean escaped = i > 0 && text.charAt(i - 1) == '\\';
      int nameEnd = i + 1;
      while (nameEnd < text.length() && isNameChar(text.charAt(nameEnd))) {
        nameEnd++;
      }
      int close = escaped ? (text.startsWith("\\" + q, nameEnd) ? nameEnd + 1 : -1)
          : (nameEnd < text.length() && text.charAt(nameEnd) == q ? nameEnd : -1);
      if (nameEnd == i + 1 || close < 0) {
        i = nameEnd > i + 1 ? nameEnd : i + 1;
        continue;
      }
      int colon = skipBlanks(text, close + 1);
      if (colon >= text.length() || text.charAt(colon) != ':' || !Redaction.namesSecret(text, i + 1, nameEnd)) {
        i = close + 1;
        continue;
      }
      int valueStart = skipBlanks(text, colon + 1);
      i = Math.max(value(words, spans, valueStart, escaped), colon + 1);
    }
  }

  /** Adds the JSON value at {@code from}; returns where it ends. */
  private static int value(Words words, Spans spans, int from, boolean escaped) {
    String text = words.text();
    if (from >= text.length()) {
      return from;
    }
    char c = text.charAt(from);
    if (escaped && c == '\\' && from + 1 < text.length() && isQuote(text.charAt(from + 1))) {
      String close = "\\" + text.charAt(from + 1);
      int end = text.indexOf(close, from + 2);
      while (end > 0 && text.charAt(end - 1) == '\\') {
        end = text.indexOf(close, end + 2);
      }
      end = end < 0 ? text.length() : end;
      spans.add(from + 2, end);
      return end;
    }
    if (isQuote(c)) {
      int end = words.quotedEnd(from);
      if (end > 0) {
        spans.add(from + 1, end - 1);
        return end;
      }
    }
    if (c == '{' || c == '[') {
      return from;
    }
    int end = from;
    while (end < text.length() && ",}]".indexOf(text.charAt(end)) < 0 && !Character.isWhitespace(text.charAt(end))) {
      end++;
    }
    spans.add(from, end);
    return end;
  }

  /** A value in quotes keeps its quotes ({@code PGPASSWORD='*********(redacted)'}), so its line still reads as written. */
  private static void add(String text, Spans spans, int start, int end) {
    if (end - start >= 2 && isQuote(text.charAt(start)) && text.charAt(end - 1) == text.charAt(start)) {
      spans.add(start + 1, end - 1);
    } else {
      spans.add(start, end);
    }
  }

  private static int skipBlanks(String text, int from) {
    int i = from;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }
}
