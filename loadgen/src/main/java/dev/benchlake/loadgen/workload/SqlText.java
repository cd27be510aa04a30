package dev.benchlake.loadgen.workload;

import java.util.List;
import java.util.Map;

/**
 * Lexical scanning of SQL text: where a statement ends and where {@code :variables} are,
 * skipping string literals ({@code '…'} with {@code ''}, {@code E'…'} with backslash escapes),
 * quoted identifiers ({@code "…"}), dollar quotes ({@code $tag$…$tag$}), {@code --} and
 * {@code /* *}{@code /} comments.
 */
final class SqlText {
  private SqlText() {}

  /** Index of the first {@code ;} outside quotes and comments, or -1. */
  static int statementEnd(CharSequence sql) {
    Scanner s = new Scanner(sql);
    while (s.pos < sql.length()) {
      if (s.skipQuotedOrComment()) {
        continue;
      }
      if (sql.charAt(s.pos) == ';') {
        return s.pos;
      }
      s.pos++;
    }
    return -1;
  }

  /** Whether {@code sql} has nothing but whitespace and comments. */
  static boolean isBlank(CharSequence sql) {
    return firstToken(sql) == sql.length();
  }

  /** {@code sql} without the whitespace and comments before its first token. */
  static String trimLeading(String sql) {
    return sql.substring(firstToken(sql));
  }

  private static int firstToken(CharSequence sql) {
    Scanner s = new Scanner(sql);
    while (s.pos < sql.length()) {
      if (s.isCommentStart()) {
        s.skipQuotedOrComment();
      } else if (Character.isWhitespace(sql.charAt(s.pos))) {
        s.pos++;
      } else {
        return s.pos;
      }
    }
    return sql.length();
  }

  /**
   * Replaces each {@code :name} outside quotes and comments by {@code ?}, appending the variable's
   * slot to {@code parameterSlots}.
   *
   * @throws IllegalArgumentException for an undefined variable
   */
  static String bindVariables(String sql, Map<String, Integer> slotOf, List<Integer> parameterSlots) {
    StringBuilder out = new StringBuilder(sql.length());
    Scanner s = new Scanner(sql);
    while (s.pos < sql.length()) {
      int start = s.pos;
      if (s.skipQuotedOrComment()) {
        out.append(sql, start, s.pos);
        continue;
      }
      char c = sql.charAt(s.pos);
      if (c == ':' && s.pos + 1 < sql.length() && sql.charAt(s.pos + 1) == ':') {
        out.append("::");
        s.pos += 2;
        continue;
      }
      if (c == ':' && s.pos + 1 < sql.length() && isIdentifierStart(sql.charAt(s.pos + 1))) {
        int end = s.pos + 1;
        while (end < sql.length() && isIdentifierPart(sql.charAt(end))) {
          end++;
        }
        String name = sql.substring(s.pos + 1, end);
        Integer slot = slotOf.get(name);
        if (slot == null) {
          throw new IllegalArgumentException("variable :" + name + " is not defined (\\set it above or --define it)");
        }
        parameterSlots.add(slot);
        out.append('?');
        s.pos = end;
        continue;
      }
      if (c == '?') {
        throw new IllegalArgumentException("'?' is not allowed in a script statement: use :name variables");
      }
      out.append(c);
      s.pos++;
    }
    return out.toString();
  }

  private static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_';
  }

  private static final class Scanner {
    private final CharSequence sql;
    int pos;

    Scanner(CharSequence sql) {
      this.sql = sql;
    }

    boolean isCommentStart() {
      return startsWith("--") || startsWith("/*");
    }

    private boolean startsWith(String s) {
      if (pos + s.length() > sql.length()) {
        return false;
      }
      for (int i = 0; i < s.length(); i++) {
        if (sql.charAt(pos + i) != s.charAt(i)) {
          return false;
        }
      }
      return true;
    }

    /** Skips a literal, quoted identifier, dollar quote or comment starting at pos; false if none starts here. */
    boolean skipQuotedOrComment() {
      char c = sql.charAt(pos);
      if (startsWith("--")) {
        while (pos < sql.length() && sql.charAt(pos) != '\n') {
          pos++;
        }
        return true;
      }
      if (startsWith("/*")) {
        int depth = 0;
        while (pos < sql.length()) {
          if (startsWith("/*")) {
            depth++;
            pos += 2;
          } else if (startsWith("*/")) {
            depth--;
            pos += 2;
            if (depth == 0) {
              return true;
            }
          } else {
            pos++;
          }
        }
        return true;
      }
      if (c == '\'' || c == '"') {
        boolean backslashEscapes = c == '\'' && pos > 0 && (sql.charAt(pos - 1) == 'E' || sql.charAt(pos - 1) == 'e');
        pos++;
        while (pos < sql.length()) {
          char d = sql.charAt(pos);
          if (backslashEscapes && d == '\\') {
            pos += 2;
          } else if (d == c) {
            if (pos + 1 < sql.length() && sql.charAt(pos + 1) == c) {
              pos += 2;
            } else {
              pos++;
              return true;
            }
          } else {
            pos++;
          }
        }
        return true;
      }
      if (c == '$') {
        int end = pos + 1;
        while (end < sql.length() && (Character.isLetterOrDigit(sql.charAt(end)) || sql.charAt(end) == '_')) {
          end++;
        }
        if (end < sql.length() && sql.charAt(end) == '$' && (end == pos + 1 || !Character.isDigit(sql.charAt(pos + 1)))) {
          String tag = sql.subSequence(pos, end + 1).toString();
          int close = sql.toString().indexOf(tag, end + 1);
          pos = close < 0 ? sql.length() : close + tag.length();
          return true;
        }
      }
      return false;
    }
  }
}
