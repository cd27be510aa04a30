package dev.benchlake.core.redaction;

import java.util.Arrays;

/**
 * Rule 1 of {@link Redaction}: what a URL carries. A URL is {@code scheme://…} up to the end of its
 * word ({@link Words#shellEnd}, from a quote just before the scheme if there is one: {@code
 * 'postgresql://u:two words@h/db'} is one URL).
 *
 * <ul>
 *   <li><b>Its password</b>: from the first {@code :} after {@code //} to the <em>last</em> {@code @}
 *       of the word, as long as the user name before that {@code :} holds no {@code /}, {@code ?} or
 *       {@code #} (then it is a path or a query, not a user). libpq reads a password up to its
 *       {@code @} ({@code #}, {@code ?}, {@code :} may be in it raw); pgjdbc has no user info at
 *       all and takes {@code u:pw/x@h} for a host, so a {@code /} may be in it too as typed.
 *   <li><b>Its parameters named as secrets</b>: after its first {@code ?} the parameters are
 *       {@code &}-separated (pgjdbc and every query string: a {@code ;}, {@code #} or {@code /} is
 *       part of the value); before any {@code ?}, {@code ;}-separated (JDBC's {@code
 *       ;password=…;}), where a value in braces runs to its closing brace ({@code {a;b}}, SQL
 *       Server's quoting).
 * </ul>
 */
final class UrlRule {
  private UrlRule() {}

  /**
   * What the rule found.
   *
   * @param credentials whether a URL carries a password or a parameter named as a secret
   * @param parameters the {@code [start, end)} pairs of the URLs' parameter lists, sorted (rule 2
   *     leaves them to this rule)
   */
  record Found(boolean credentials, int[] parameters) {
    static final Found NONE = new Found(false, new int[0]);
  }

  /**
   * @param oneWord the text is one word (a command line's argument, a location): the URL runs to its end
   * @param wholeUserinfo the user name goes with the password ({@code s3a://ACCESS_KEY_ID:SECRET@…})
   */
  static Found find(Words words, Spans spans, boolean oneWord, boolean wholeUserinfo) {
    String text = words.text();
    int found = text.indexOf("://");
    if (found < 0) {
      return Found.NONE;
    }
    boolean credentials = false;
    int[] parameters = new int[4];
    int sections = 0;
    int tokenEnd = -1;
    int lastAt = -1;
    boolean parametersRead = false;
    while (found >= 0) {
      int schemeStart = found;
      while (schemeStart > 0 && isSchemeChar(text.charAt(schemeStart - 1))) {
        schemeStart--;
      }
      int authority = found + 3;
      if (schemeStart < found && found >= tokenEnd) {
        int start = schemeStart > 0 && isQuote(text.charAt(schemeStart - 1)) ? schemeStart - 1 : schemeStart;
        tokenEnd = oneWord ? text.length() : Math.max(words.shellEnd(start, false), authority);
        lastAt = -1;
        for (int i = tokenEnd - 1; i >= authority; i--) {
          if (text.charAt(i) == '@') {
            lastAt = i;
            break;
          }
        }
        parametersRead = false;
      }
      if (schemeStart < found && found < tokenEnd) {
        int userEnd = authority;
        while (userEnd < lastAt && text.charAt(userEnd) != ':' && "/?#".indexOf(text.charAt(userEnd)) < 0) {
          userEnd++;
        }
        boolean userinfo = lastAt > authority && (userEnd == lastAt || text.charAt(userEnd) == ':');
        if (userinfo && userEnd + 1 < lastAt) {
          credentials = true;
          spans.add(wholeUserinfo ? authority : userEnd + 1, lastAt);
        } else if (userinfo && wholeUserinfo) {
          spans.add(authority, lastAt);
        }
        if (!parametersRead) {
          parametersRead = true;
          // From the authority, not after the user info: a ;-parameter's value may hold an '@'
          // ({@code ;password={a@b}}), and then both readings are redacted.
          int listStart = authority;
          while (listStart < tokenEnd && text.charAt(listStart) != '?' && text.charAt(listStart) != ';') {
            listStart++;
          }
          if (listStart < tokenEnd) {
            credentials |= parameters(words, listStart, tokenEnd, spans);
            if (sections + 2 > parameters.length) {
              parameters = Arrays.copyOf(parameters, parameters.length * 2);
            }
            parameters[sections++] = listStart;
            parameters[sections++] = tokenEnd;
          }
        }
      }
      found = text.indexOf("://", found + 1);
    }
    return new Found(credentials, Arrays.copyOf(parameters, sections));
  }

  /** The parameters of {@code text[from, to)}, {@code from} at their first {@code ?} or {@code ;}: whether one is a secret. */
  private static boolean parameters(Words words, int from, int to, Spans spans) {
    String text = words.text();
    boolean query = text.charAt(from) == '?';
    char separator = query ? '&' : ';';
    boolean secret = false;
    int i = from + 1;
    while (i < to) {
      int nameEnd = i;
      while (nameEnd < to && NamedValues.isNameChar(text.charAt(nameEnd))) {
        nameEnd++;
      }
      int valueStart = nameEnd + 1;
      int valueEnd = valueStart;
      if (nameEnd > i && nameEnd < to && text.charAt(nameEnd) == '=') {
        if (!query && valueStart < to && text.charAt(valueStart) == '{') {
          valueEnd = words.bracedEnd(valueStart);
        }
        if (valueEnd <= valueStart) {
          valueEnd = valueStart;
          while (valueEnd < to && text.charAt(valueEnd) != separator) {
            valueEnd++;
          }
        }
        if (valueEnd > valueStart && Redaction.namesSecret(text, i, nameEnd)) {
          secret = true;
          boolean braced = text.charAt(valueStart) == '{' && text.charAt(valueEnd - 1) == '}' && valueEnd - valueStart >= 2;
          spans.add(braced ? valueStart + 1 : valueStart, braced ? valueEnd - 1 : valueEnd);
        }
      } else {
        valueEnd = nameEnd;
      }
      i = valueEnd;
      while (i < to && text.charAt(i) != separator) {
        i++;
      }
      i++;
    }
    return secret;
  }

  private static boolean isSchemeChar(char c) {
    return c < 128 && (Character.isLetterOrDigit(c) || c == '+' || c == '-' || c == '.' || c == ':');
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }
}
