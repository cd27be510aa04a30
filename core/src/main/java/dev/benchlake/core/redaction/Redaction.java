package dev.benchlake.core.redaction;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one rule for secrets in what benchlake writes: stdout, stderr, every log handler (log4j and
 * java.util.logging), manifests, {@code rejects.raw_line} and {@code reason}, task errors, report and
 * trend provenance, exports, loadgen's messages. Every output that may echo what a user typed or a
 * tool printed goes through here; nothing else decides what a secret is.
 *
 * <p>What is a secret (the value is replaced by {@link #MARKER}; the name stays, so a reader sees
 * what was redacted). Each syntax is read the way its consumer reads it, and where consumers
 * disagree on where a value ends, the farthest end wins:
 * <ol>
 *   <li><b>What a URL carries</b> ({@link UrlRule}), any scheme ({@code postgresql:}, {@code
 *       jdbc:postgresql:}, {@code jdbc:sqlserver:}, {@code s3a:}, {@code abfs:}, {@code gs:}…): its
 *       password, from the first {@code :} of {@code user:PASSWORD@host} to the last {@code @} of
 *       the URL's word ({@code #}, {@code ?}, {@code /} and {@code @} may be in it as typed: libpq reads
 *       to the {@code @}, pgjdbc parses no user info at all); and its parameters named as secrets,
 *       {@code &}-separated after a {@code ?}, {@code ;}-separated before one ({@code {a;b}} braced).</li>
 *   <li><b>The value of a name that names a secret</b> ({@link NamedValues}): {@code NAME=VALUE}
 *       ({@code --conf} and {@code -D} settings, {@code PGPASSWORD=…}, libpq's {@code password=…},
 *       {@code --pgsql-password=…}; blanks around {@code =} allowed) and {@code "NAME": VALUE}
 *       (JSON, escaped JSON, Python's quotes). A value is a shell word (POSIX quotes and backslashes)
 *       or a libpq value ({@code 'it\'s'}), so an unquoted one runs to the next blank ({@code a;b} is
 *       one value); an environment variable's ({@code PGPASSWORD=two words}, as {@code env} prints
 *       it) to the end of its line, unless an option follows on it (a command line) or another
 *       assignment; a query parameter ({@code ?…&NAME=VALUE}) to the next {@code &}. Only the NAME
 *       decides: {@code step=primary-key-lookup} is kept, and a word is never redacted for what it
 *       says.</li>
 *   <li><b>The value after an option named as a secret</b> ({@link OptionValues}): {@code
 *       --mysql-password VALUE}, {@code --pgsql-password 'two words'}. An option's unquoted value
 *       ({@code --mysql-password two words --mysql-host h}, as a harness echoes a command without
 *       its quotes) runs to the next option or assignment of its line, when one follows.</li>
 *   <li><b>The body of a private PEM block</b> ({@link PemBlocks}): {@code -----BEGIN … PRIVATE
 *       KEY-----} to {@code -----END …-----}, over lines or JSON's {@code \n}.</li>
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
 * <p>Every pass is linear in the text (no regular expression that can backtrack, no search that
 * starts over): a reject may be a 10 MB line.
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
  static boolean namesSecret(String name, int from, int to) {
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
    return scrub(text, false, false);
  }

  /**
   * A location or URL as a refusal may show it: scrubbed, and each URL's whole user info gone, not
   * only its password ({@code s3a://ACCESS_KEY_ID:SECRET@bucket}: the key's id names the account).
   */
  public static String withoutUserinfo(String location) {
    return scrub(location, true, true);
  }

  /**
   * @param oneWord the text is one word as a program received it (a command line's argument):
   *     a URL in it runs to its end, blanks and all
   */
  private static String scrub(String text, boolean oneWord, boolean wholeUserinfo) {
    if (text == null || text.isEmpty()) {
      return text;
    }
    Words words = new Words(text);
    Spans spans = new Spans();
    UrlRule.Found urls = UrlRule.find(words, spans, oneWord, wholeUserinfo);
    NamedValues.assignments(words, spans, urls);
    NamedValues.quotedNames(words, spans);
    OptionValues.find(words, spans);
    PemBlocks.find(text, spans);
    return spans.applyTo(text);
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
      String previous = i > 0 ? args.get(i - 1) : "";
      out.add(OptionValues.isSecretOption(previous, 0, previous.length()) && !arg.startsWith("-") ? MARKER : arg(arg));
    }
    return out;
  }

  /**
   * One word of a command line: a setting ({@code NAME=VALUE}, {@code --conf=NAME=VALUE}, {@code
   * -DNAME=VALUE}) whose name names a secret loses its whole value (a shell word may hold blanks);
   * any other word is scrubbed as one word (a URL in it runs to its end).
   */
  private static String arg(String arg) {
    String prefix = arg.startsWith("--conf=") ? "--conf=" : "";
    int eq = arg.indexOf('=', prefix.length());
    if (eq > prefix.length() && eq + 1 < arg.length()) {
      String name = arg.substring(prefix.length(), eq);
      if (name.chars().allMatch(c -> NamedValues.isNameChar((char) c)) && namesSecret(name)) {
        return arg.substring(0, eq + 1) + MARKER;
      }
    }
    return scrub(arg, true, false);
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
    return uri != null && !uri.isEmpty() && UrlRule.find(new Words(uri), new Spans(), true, false).credentials();
  }

}
