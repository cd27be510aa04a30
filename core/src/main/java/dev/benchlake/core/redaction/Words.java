package dev.benchlake.core.redaction;

/**
 * Where a word or a value of one text ends, read the way each of its consumers reads it: a POSIX
 * shell word (quotes, backslashes), a libpq value ({@code 'it\'s'}), a JSON string, a braced JDBC
 * value ({@code {a;b}}). The rules ({@link Redaction}) take the farthest end any consumer would
 * read, so that no reading leaves part of a secret behind.
 *
 * <p>Linear: every search for a closing quote either ends where the caller then continues, or
 * finds none, which is remembered (a later search of that kind from further on finds none either:
 * the text after it holds no closing quote, and escapes cannot realign past an opening quote).
 */
final class Words {
  private final String text;
  private final int length;
  /** No closing quote of this kind from here on ({@link Integer#MAX_VALUE}: not known yet). */
  private int noSingleFrom = Integer.MAX_VALUE;
  private int noEscapedSingleFrom = Integer.MAX_VALUE;
  private int noDoubleFrom = Integer.MAX_VALUE;
  private int noBraceFrom = Integer.MAX_VALUE;
  /**
   * The stretch of a line {@link #scanLine} read last: from any position in it, what stops an
   * echoed value is {@link #scannedStop}, at {@link #scannedTo}, and the last word before it ends at
   * {@link #scannedWordEnd}.
   */
  private int scannedFrom = -1;
  private int scannedTo = -1;
  private int scannedWordEnd = -1;
  private Stop scannedStop;
  /** What {@link #scanLine} found last. */
  private int lastWordEnd;

  Words(String text) {
    this.text = text;
    this.length = text.length();
  }

  String text() {
    return text;
  }

  /**
   * The end of the shell word that starts at {@code from}: the first blank outside quotes. A quote
   * with no closing one is a plain character (a log line's apostrophe); a backslash escapes the next
   * character; {@code 'a'\''b'} is one word. A {@code ;}, {@code &}, {@code |} or {@code )} right
   * after a closing quote ends it (the shell's operators: {@code export PGPASSWORD='x'; pgbench});
   * elsewhere they are part of the word, as in an echoed {@code PGPASSWORD=a;b}.
   */
  int shellEnd(int from) {
    return shellEnd(from, true);
  }

  /**
   * {@link #shellEnd(int)}, where {@code operators} says whether a shell operator after a closing
   * quote ends the word: not in a URL, where {@code u:a''&@h} is one password.
   */
  int shellEnd(int from, boolean operators) {
    int i = from;
    boolean afterQuote = false;
    while (i < length) {
      char c = text.charAt(i);
      if (c == '\'' || c == '"') {
        int close = c == '\'' ? closingSingle(i + 1) : closingEscaped('"', i + 1);
        if (close >= 0) {
          i = close + 1;
          afterQuote = true;
          continue;
        }
      } else if (Character.isWhitespace(c)) {
        break;
      } else if (operators && afterQuote && (c == ';' || c == '&' || c == '|' || c == ')')) {
        break;
      } else if (c == '\\' && i + 1 < length) {
        i += 2;
        afterQuote = false;
        continue;
      }
      i++;
      afterQuote = false;
    }
    return i;
  }

  /**
   * The end of a libpq value that starts at {@code from}: a single-quoted one runs to its closing
   * quote ({@code \'} and {@code \\} escaped), any other to the first blank not escaped by a
   * backslash.
   */
  int libpqEnd(int from) {
    if (from < length && text.charAt(from) == '\'') {
      int close = closingEscaped('\'', from + 1);
      if (close >= 0) {
        return close + 1;
      }
    }
    int i = from;
    while (i < length && !Character.isWhitespace(text.charAt(i))) {
      i += text.charAt(i) == '\\' && i + 1 < length ? 2 : 1;
    }
    return i;
  }

  /** The end of a quoted string that starts at {@code from} ({@code "…"} or {@code '…'}, backslash escapes), or -1. */
  int quotedEnd(int from) {
    char q = text.charAt(from);
    int close = q == '"' || q == '\'' ? closingEscaped(q, from + 1) : -1;
    return close < 0 ? -1 : close + 1;
  }

  /** The end of a JDBC value in braces ({@code {a;b}}, {@code }}} for a brace) that starts at {@code from}, or -1. */
  int bracedEnd(int from) {
    if (from + 1 >= noBraceFrom) {
      return -1;
    }
    for (int i = from + 1; i < length; i++) {
      if (text.charAt(i) == '}') {
        if (i + 1 < length && text.charAt(i + 1) == '}') {
          i++;
        } else {
          return i + 1;
        }
      }
    }
    noBraceFrom = from + 1;
    return -1;
  }

  /**
   * Where an option's unquoted value that starts a word ending at {@code valueEnd} runs to when a
   * harness echoed it without its quotes ({@code --mysql-password two words --mysql-host h}): to the
   * last word before the next option ({@code -x}) or assignment ({@code NAME=…}) on the same line;
   * {@code valueEnd} itself when neither follows on that line (then it may as well be prose:
   * "--password needs a value").
   */
  int echoedValueEnd(int valueEnd) {
    return scanLine(valueEnd) == Stop.LINE_END ? valueEnd : lastWordEnd;
  }

  /**
   * Where an environment variable's unquoted value ({@code PGPASSWORD=two words}, as {@code env}
   * prints it) that starts a word ending at {@code valueEnd} runs to: the last word before the next
   * assignment or the end of its line, unless an option follows on it ({@code PGPASSWORD=x pgbench
   * -c 8}: a command line, whose shell ended the value at the blank).
   */
  int environmentValueEnd(int valueEnd) {
    return scanLine(valueEnd) == Stop.OPTION ? valueEnd : lastWordEnd;
  }

  /** What ends an echoed value. */
  private enum Stop { OPTION, ASSIGNMENT, LINE_END }

  /**
   * Scans the words (blank-separated) after {@code from} on its line up to the first option or assignment word: what
   * stopped it, and {@link #lastWordEnd}, the end of the last word before. Remembers the stretch it
   * scanned, so that scans from within it cost nothing.
   */
  private Stop scanLine(int from) {
    if (from >= scannedFrom && from <= scannedTo) {
      lastWordEnd = Math.max(from, scannedWordEnd);
      return scannedStop;
    }
    int wordEnd = from;
    int i = from;
    Stop stop = Stop.LINE_END;
    while (i < length) {
      char c = text.charAt(i);
      if (c == '\n' || c == '\r') {
        break;
      }
      if (Character.isWhitespace(c)) {
        i++;
        continue;
      }
      // An echo lost its quoting: its words are what blanks separate, a backslash is a character.
      int end = i;
      while (end < length && !Character.isWhitespace(text.charAt(end))) {
        end++;
      }
      if (c == '-' || isAssignment(i, end)) {
        stop = c == '-' ? Stop.OPTION : Stop.ASSIGNMENT;
        break;
      }
      i = end;
      wordEnd = end;
    }
    scannedFrom = from;
    scannedTo = stop == Stop.LINE_END ? wordEnd : i;
    scannedWordEnd = wordEnd;
    scannedStop = stop;
    lastWordEnd = wordEnd;
    return stop;
  }

  /** Whether the word {@code text[from, to)} is {@code NAME=…}, NAME in ASCII as variables' and settings' names are. */
  private boolean isAssignment(int from, int to) {
    int i = from;
    while (i < to && isAsciiNameChar(text.charAt(i))) {
      i++;
    }
    return i > from && i < to && text.charAt(i) == '=';
  }

  private static boolean isAsciiNameChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.';
  }

  /** The next {@code '} at or after {@code from}, or -1. */
  private int closingSingle(int from) {
    if (from >= noSingleFrom) {
      return -1;
    }
    int close = text.indexOf('\'', from);
    if (close < 0) {
      noSingleFrom = from;
    }
    return close;
  }

  /** The next {@code quote} ({@code '} or {@code "}) at or after {@code from} not escaped by a backslash, or -1. */
  private int closingEscaped(char quote, int from) {
    if (from >= (quote == '"' ? noDoubleFrom : noEscapedSingleFrom)) {
      return -1;
    }
    for (int i = from; i < length; i++) {
      char c = text.charAt(i);
      if (c == '\\') {
        i++;
      } else if (c == quote) {
        return i;
      }
    }
    if (quote == '"') {
      noDoubleFrom = from;
    } else {
      noEscapedSingleFrom = from;
    }
    return -1;
  }
}
