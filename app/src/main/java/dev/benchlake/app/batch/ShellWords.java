package dev.benchlake.app.batch;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits one line of a batch file into words as a POSIX shell would, without expanding anything:
 * blanks separate words; {@code '…'} keeps everything literally; {@code "…"} keeps everything but
 * {@code \"}, {@code \\}, {@code \$} and {@code \`}, which lose their backslash; outside quotes a
 * backslash keeps the next character; a {@code #} that starts a word starts a comment. So a line
 * that works pasted into a shell, without variables or globs, means the same here.
 */
final class ShellWords {
  private ShellWords() {}

  /** The words of {@code line}: empty for a blank line or a comment. */
  static List<String> split(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = new StringBuilder();
    boolean inWord = false;
    int i = 0;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (!inWord && c == '#') {
        break;
      }
      if (c == ' ' || c == '\t') {
        if (inWord) {
          words.add(word.toString());
          word.setLength(0);
          inWord = false;
        }
        i++;
        continue;
      }
      inWord = true;
      if (c == '\'') {
        int end = line.indexOf('\'', i + 1);
        if (end < 0) {
          throw new IllegalArgumentException("unterminated ' (a quote opened at column " + (i + 1) + ")");
        }
        word.append(line, i + 1, end);
        i = end + 1;
      } else if (c == '"') {
        i = doubleQuoted(line, i, word);
      } else if (c == '\\') {
        if (i + 1 < line.length()) {
          word.append(line.charAt(i + 1));
        }
        i += 2;
      } else {
        word.append(c);
        i++;
      }
    }
    if (inWord) {
      words.add(word.toString());
    }
    return words;
  }

  /** The quoted text from the {@code "} at {@code open} into {@code word}; returns the index after the closing quote. */
  private static int doubleQuoted(String line, int open, StringBuilder word) {
    int i = open + 1;
    while (i < line.length()) {
      char c = line.charAt(i);
      if (c == '"') {
        return i + 1;
      }
      if (c == '\\' && i + 1 < line.length() && "\"\\$`".indexOf(line.charAt(i + 1)) >= 0) {
        word.append(line.charAt(i + 1));
        i += 2;
      } else {
        word.append(c);
        i++;
      }
    }
    throw new IllegalArgumentException("unterminated \" (a quote opened at column " + (open + 1) + ")");
  }
}
