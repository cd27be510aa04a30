package dev.benchlake.core.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one rule for secrets in what benchlake writes: stderr, logs, manifests, {@code rejects.raw_line},
 * report and trend provenance, exports, loadgen's messages. Every output that may echo what a user
 * typed or a tool printed goes through here; nothing else decides what a secret is.
 *
 * <p>What is a secret (the value is replaced by {@link #MARKER}; the name stays, so a reader sees
 * what was redacted):
 * <ol>
 *   <li><b>A URL's password</b>: {@code scheme://user:PASSWORD@host}, any scheme ({@code
 *       jdbc:postgresql:}, {@code postgresql:}, {@code s3a:}, {@code abfs:}, {@code wasb:}, {@code gs:}…).
 *       The authority ends at {@code /}, {@code ?}, {@code #} or a blank, as RFC 3986 has it (a
 *       password holding one of those must be percent-encoded).</li>
 *   <li><b>{@code NAME=VALUE} whose NAME names a secret</b> ({@link #namesSecret}): {@code --conf}
 *       and {@code -D} settings ({@code fs.azure.account.key.A.blob.core.windows.net=…}, {@code
 *       fs.s3a.secret.key=…}), URL query and {@code ;}-separated parameters ({@code ?password=…},
 *       {@code ;pwd=…}, {@code &sig=…}), options ({@code --pgsql-password=…}), environment
 *       assignments ({@code PGPASSWORD=…}), libpq's {@code password=…}. Blanks around {@code =} are
 *       allowed. The value runs to the next blank, {@code &} or {@code ;}, or, when it starts with a
 *       quote, to the closing quote. Only the NAME decides: {@code step=primary-key-lookup} is kept
 *       (its name is {@code step}), and a word is never redacted for what it says.</li>
 *   <li><b>An option naming a secret followed by its value</b>: {@code --pgsql-password VALUE},
 *       {@code --mysql-password VALUE} (the next word, unless it is an option itself).</li>
 * </ol>
 *
 * <p>A name names a secret when, ignoring case, it contains {@code password}, {@code passwd},
 * {@code pwd}, {@code secret}, {@code token}, {@code credential} or {@code signature}, or one of its
 * words (split at anything not a letter or digit, and between a lower-case letter and an upper-case
 * one) is {@code key}, {@code keys}, {@code apikey}, {@code accesskey}, {@code accountkey}, {@code
 * privatekey}, {@code sas}, {@code sig} or {@code pw}; a name that is only {@code key} or {@code keys} is the
 * generic word of {@code key=value} (our own messages, picocli's), not a secret. Whole words for the short ones: {@code
 * fs.s3a.access.key}, {@code accessKeyId} and {@code AWS_SECRET_ACCESS_KEY} are secrets, {@code
 * monkey} and {@code keyspace} are not. This covers Spark's own {@code spark.redaction.regex}
 * ({@code secret|password|token|access[.]?key}) and what it misses: Azure's account keys and SAS
 * tokens, Google Cloud's private keys, signatures of pre-signed URLs.
 *
 * <p>Every pass is linear in the text (no regular expression that can backtrack): a reject may be a
 * 10 MB line.
 */
public final class Redaction {
  /** What a secret value becomes: Spark's own marker, so that both read the same in one log. */
  public static final String MARKER = "*********(redacted)";

  private static final List<String> SECRET_PARTS =
      List.of("password", "passwd", "pwd", "secret", "token", "credential", "signature");
  private static final Set<String> SECRET_WORDS =
      Set.of("key", "keys", "apikey", "accesskey", "accountkey", "privatekey", "sas", "sig", "pw");

  private Redaction() {}

  /** Whether a setting, parameter, option or variable of this name holds a secret (see the class comment). */
  public static boolean namesSecret(String name) {
    return namesSecret(name, 0, name.length());
  }

  /** {@link #namesSecret(String)} of {@code name[from, to)}, without copying it (a reject may hold millions of names). */
  private static boolean namesSecret(String name, int from, int to) {
    for (String part : SECRET_PARTS) {
      for (int i = from; i + part.length() <= to; i++) {
        if (name.regionMatches(true, i, part, 0, part.length())) {
          return true;
        }
      }
    }
    // A bare "key" is the generic word of "key=value" (our own messages, picocli's), not a secret:
    // it names one only beside another word (account.key, secret.key, api_key, accessKeyId).
    int length = to - from;
    if (length == 3 && name.regionMatches(true, from, "key", 0, 3)
        || length == 4 && name.regionMatches(true, from, "keys", 0, 4)) {
      return false;
    }
    int start = -1;
    for (int i = from; i <= to; i++) {
      boolean boundary = i == to || !Character.isLetterOrDigit(name.charAt(i))
          || (i > from && Character.isLowerCase(name.charAt(i - 1)) && Character.isUpperCase(name.charAt(i)));
      if (boundary && start >= 0) {
        for (String word : SECRET_WORDS) {
          if (word.length() == i - start && name.regionMatches(true, start, word, 0, word.length())) {
            return true;
          }
        }
        start = -1;
      }
      if (i < to && Character.isLetterOrDigit(name.charAt(i)) && start < 0) {
        start = i;
      }
    }
    return false;
  }

  /**
   * The same names as a {@code spark.redaction.regex}, for what Spark itself shows of its settings
   * (its UI's environment page, the event log, its own logs): the parts anywhere, the words between
   * characters that are not letters or digits, or after a lower-case letter ({@code accessKeyId}).
   * Spark matches it against each setting's name and value.
   */
  public static String sparkRegex() {
    return "(?i)" + String.join("|", SECRET_PARTS) + "|(?<![a-z0-9])(?:" + String.join("|", SECRET_WORDS.stream().sorted()
        .toList()) + ")(?![a-z0-9])|(?-i:[a-z](?:Key|Keys|Sas|Sig|Pw)(?![a-z]))";
  }

  /** {@code text} with every secret value replaced by {@link #MARKER}; null stays null. */
  public static String scrub(String text) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    return optionValues(namedValues(urlPasswords(text)));
  }

  /**
   * A command line's words as they may be shown or stored (a report's provenance, {@code batch}'s
   * echo): each word scrubbed, and the word after an option that names a secret ({@code
   * --pgsql-password VALUE}) replaced whole.
   */
  public static List<String> args(List<String> args) {
    List<String> out = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      out.add(i > 0 && isSecretOption(args.get(i - 1)) && !arg.startsWith("-") ? MARKER : arg(arg));
    }
    return out;
  }

  /**
   * One word of a command line: a setting ({@code NAME=VALUE}, {@code --conf=NAME=VALUE}, {@code
   * -DNAME=VALUE}) whose name names a secret loses its whole value (a shell word may hold blanks);
   * any other word is scrubbed as text.
   */
  private static String arg(String arg) {
    String prefix = arg.startsWith("--conf=") ? "--conf=" : "";
    int eq = arg.indexOf('=', prefix.length());
    if (eq > prefix.length() && eq + 1 < arg.length()) {
      String name = arg.substring(prefix.length(), eq);
      if (name.chars().allMatch(c -> isNameChar((char) c)) && namesSecret(name)) {
        return arg.substring(0, eq + 1) + MARKER;
      }
    }
    return scrub(arg);
  }

  /** The value of a named fact as it may be stored: {@link #MARKER} when the name names a secret, else scrubbed. */
  public static String value(String name, String value) {
    return value != null && !value.isEmpty() && namesSecret(name) ? MARKER : scrub(value);
  }

  /**
   * Whether a location or connection URL carries credentials: a password in its authority, or a
   * parameter naming a secret after its {@code ?} or {@code ;}. Path segments do not count (a Hive
   * style folder {@code key=2024} is a folder).
   */
  public static boolean carriesCredentials(String uri) {
    if (uri == null) {
      return false;
    }
    if (!urlPasswords(uri).equals(uri)) {
      return true;
    }
    int params = firstOf(uri, "?;");
    return params >= 0 && !namedValues(uri.substring(params)).equals(uri.substring(params));
  }

  private static boolean isSecretOption(String word) {
    if (!word.startsWith("-") || word.indexOf('=') >= 0) {
      return false;
    }
    String name = stripped(word);
    return !name.isEmpty() && namesSecret(name);
  }

  /** {@code --pgsql-password',} → {@code pgsql-password}: an option word without its dashes and quoting. */
  private static String stripped(String word) {
    int from = 0;
    int to = word.length();
    while (from < to && (word.charAt(from) == '-' || isQuote(word.charAt(from)))) {
      from++;
    }
    while (to > from && (isQuote(word.charAt(to - 1)) || word.charAt(to - 1) == ',' || word.charAt(to - 1) == ':')) {
      to--;
    }
    return word.substring(from, to);
  }

  /** Rule 1: {@code scheme://user:PASSWORD@host}. */
  private static String urlPasswords(String text) {
    int found = text.indexOf("://");
    if (found < 0) {
      return text;
    }
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    while (found >= 0) {
      int end = found + 3;
      int firstColon = -1;
      int lastAt = -1;
      for (; end < text.length() && !endsAuthority(text.charAt(end)); end++) {
        if (text.charAt(end) == '@') {
          lastAt = end;
        } else if (text.charAt(end) == ':' && firstColon < 0) {
          firstColon = end;
        }
      }
      if (firstColon >= 0 && firstColon + 1 < lastAt) {
        out.append(text, copied, firstColon + 1).append(MARKER);
        copied = lastAt;
      }
      found = text.indexOf("://", end);
    }
    return copied == 0 ? text : out.append(text, copied, text.length()).toString();
  }

  private static boolean endsAuthority(char c) {
    return c == '/' || c == '?' || c == '#' || Character.isWhitespace(c) || isQuote(c) || c == '<' || c == '>';
  }

  /** Rule 2: {@code NAME=VALUE} whose NAME names a secret. */
  private static String namedValues(String text) {
    if (text.indexOf('=') < 0) {
      return text;
    }
    StringBuilder out = null;
    int copied = 0;
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
      if (c == '=' && nameStart >= 0 && namesSecret(text, nameStart, nameEnd)) {
        int valueStart = skipBlanks(text, i + 1);
        int valueEnd = valueEnd(text, valueStart);
        if (valueEnd > valueStart) {
          if (out == null) {
            out = new StringBuilder(text.length());
          }
          boolean quoted = isQuote(text.charAt(valueStart)) && valueEnd - valueStart >= 2
              && text.charAt(valueEnd - 1) == text.charAt(valueStart);
          out.append(text, copied, valueStart);
          out.append(quoted ? text.charAt(valueStart) + MARKER + text.charAt(valueStart) : MARKER);
          copied = valueEnd;
        }
        nameStart = -1;
        nameEnd = -1;
        i = Math.max(valueEnd, i + 1);
        continue;
      }
      if (c != ' ' && c != '\t') {
        nameStart = -1;
        nameEnd = -1;
      }
      i++;
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  private static boolean isNameChar(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-';
  }

  private static int skipBlanks(String text, int from) {
    int i = from;
    while (i < text.length() && (text.charAt(i) == ' ' || text.charAt(i) == '\t')) {
      i++;
    }
    return i;
  }

  /** Where a value that starts at {@code from} ends: its closing quote, or the next blank, {@code &} or {@code ;}. */
  private static int valueEnd(String text, int from) {
    if (from < text.length() && isQuote(text.charAt(from))) {
      int close = text.indexOf(text.charAt(from), from + 1);
      if (close >= 0) {
        return close + 1;
      }
    }
    int i = from;
    while (i < text.length() && !Character.isWhitespace(text.charAt(i)) && text.charAt(i) != '&'
        && text.charAt(i) != ';') {
      i++;
    }
    return i;
  }

  /** Rule 3: an option naming a secret, then its value as the next word. */
  private static String optionValues(String text) {
    if (text.indexOf('-') < 0) {
      return text;
    }
    StringBuilder out = null;
    int copied = 0;
    boolean secretNext = false;
    int i = 0;
    while (i < text.length()) {
      if (Character.isWhitespace(text.charAt(i))) {
        i++;
        continue;
      }
      int end = i;
      while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
        end++;
      }
      String word = unquoted(text.substring(i, end));
      if (secretNext && !word.isEmpty() && !word.startsWith("-") && !word.equals(MARKER)) {
        if (out == null) {
          out = new StringBuilder(text.length());
        }
        out.append(text, copied, i).append(MARKER);
        copied = end;
        secretNext = false;
      } else {
        // An option quoted on its own ("Unknown option: '--pgsql-password' (…)") is a mention, not given a value.
        secretNext = isSecretOption(word) && !isQuote(text.charAt(end - 1));
      }
      i = end;
    }
    return out == null ? text : out.append(text, copied, text.length()).toString();
  }

  private static String unquoted(String word) {
    int from = 0;
    while (from < word.length() && isQuote(word.charAt(from))) {
      from++;
    }
    return word.substring(from);
  }

  private static int firstOf(String text, String chars) {
    for (int i = 0; i < text.length(); i++) {
      if (chars.indexOf(text.charAt(i)) >= 0) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isQuote(char c) {
    return c == '\'' || c == '"';
  }
}
