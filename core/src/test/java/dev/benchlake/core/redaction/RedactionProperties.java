package dev.benchlake.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The canary corpus as a generator: passwords made of every character that some syntax treats
 * specially (every URL delimiter {@code : / ? # @ & ; = % + [ ]}, quotes, blanks, newlines,
 * backslashes, non-ASCII), each planted in every syntax a consumer accepts, encoded the way that
 * consumer needs it: a libpq URL (raw up to its {@code @}, {@code @ / %} percent-encoded, in a
 * shell word and echoed in a line), a JDBC URL's user info (raw, as pgjdbc's warnings print it),
 * query ({@code & % +} encoded) and {@code ;}-parameters (braced), a libpq key=value list (quoted and
 * escaped per libpq), shell words (POSIX single, double and backslash quoting) as an environment
 * assignment, an option's {@code =} value and its next word, a command line echoed without its
 * quotes, JSON strings (plain and JSON inside JSON), PEM blocks (lines and {@code \n}-escaped), an
 * s3a location.
 *
 * <p>What {@link Redaction#scrub} (and {@link Redaction#args} of a command line's words) leaves
 * holds neither the password nor any 4-character piece of it or of its encoded form that the
 * surrounding text does not hold itself. A fixed seed, {@value #TRIES} passwords × every syntax;
 * a few hundred milliseconds.
 */
class RedactionProperties {
  static final int TRIES = 1000;
  private static final String SEED = "20260044";
  private static final int PIECE = 4;

  /** One way to write a password into a line: what precedes it, it encoded, what follows. */
  private record Plant(String syntax, String before, String encoded, String after, boolean shellLine) {
    String text() {
      return before + encoded + after;
    }
  }

  @Provide
  Arbitrary<String> passwords() {
    Arbitrary<Character> plain = Arbitraries.chars().with("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");
    Arbitrary<Character> url = Arbitraries.chars().with(":/?#@&;=%+[]");
    Arbitrary<Character> quotes = Arbitraries.chars().with("'\"`");
    Arbitrary<Character> blanks = Arbitraries.chars().with(" \n\t");
    Arbitrary<Character> backslash = Arbitraries.just('\\');
    Arbitrary<Character> foreign = Arbitraries.chars().with("éßñ密码€ж");
    Arbitrary<Character> other = Arbitraries.chars().with("-{}$*,!()<>|");
    Arbitrary<Character> any = Arbitraries.frequencyOf(Tuple.of(6, plain), Tuple.of(4, url), Tuple.of(2, quotes),
        Tuple.of(2, blanks), Tuple.of(1, backslash), Tuple.of(1, foreign), Tuple.of(1, other));
    return any.list().ofMinSize(6).ofMaxSize(24).map(cs -> {
      StringBuilder s = new StringBuilder();
      cs.forEach(s::append);
      return s.toString();
    });
  }

  @Property(tries = TRIES, seed = SEED)
  void noSyntaxLeavesAPieceOfThePassword(@ForAll("passwords") String password) {
    for (Plant plant : plants(password)) {
      String text = plant.text();
      String surrounding = plant.before() + "\u0000" + plant.after() + "\u0000" + Redaction.MARKER;
      assertNoPiece(plant.syntax() + " scrub", Redaction.scrub(text), password, plant.encoded(), surrounding, text);
      if (plant.shellLine()) {
        String words = String.join("\u0000", Redaction.args(shellWords(text)));
        assertNoPiece(plant.syntax() + " args", words, password, plant.encoded(), surrounding, text);
      }
    }
  }

  @Property(tries = TRIES, seed = SEED)
  void aUrlOrLocationWithAPasswordCarriesCredentialsAndItsRefusalShowsNoUserinfo(@ForAll("passwords") String password) {
    String s3a = "s3a://AKIAIOSFODNN7EXAMPLE:";
    for (Plant uri : List.of(new Plant("JDBC user info", "jdbc:postgresql://bench:", password, "@db.example:5432/bench", false),
        new Plant("JDBC query", "jdbc:postgresql://db.example/bench?user=bench&password=", pgjdbcQuery(password), "", false),
        new Plant("s3a encoded", s3a, percentEncoded(password, c -> !isUnreserved(c)), "@bucket/warehouse", false),
        new Plant("s3a as typed", s3a, password, "@bucket/warehouse", false))) {
      assertThat(Redaction.carriesCredentials(uri.text())).as(uri.text()).isTrue();
      String shown = Redaction.withoutUserinfo(uri.text());
      assertThat(shown).as(uri.text()).doesNotContain("AKIAIOSFODNN7EXAMPLE").doesNotContain("bench:");
      assertNoPiece(uri.syntax() + " refused", shown, password, uri.encoded(),
          uri.before() + "\u0000" + uri.after() + "\u0000" + Redaction.MARKER, uri.text());
    }
  }

  private static void assertNoPiece(String what, String output, String password, String encoded, String surrounding,
      String input) {
    String left = output.replace(Redaction.MARKER, "\u0000"); // no piece across the marker and its neighbour
    for (String secret : List.of(password, encoded)) {
      for (int i = 0; i + PIECE <= secret.length(); i++) {
        String piece = secret.substring(i, i + PIECE);
        if (left.contains(piece) && !surrounding.contains(piece)) {
          throw new AssertionError(String.format(Locale.ROOT, "%s: the piece %s of the password %s is left in%n  %s%nfrom%n  %s",
              what, visible(piece), visible(password), visible(output), visible(input)));
        }
      }
    }
  }

  private static String visible(String s) {
    return "[" + s.replace("\n", "\\n").replace("\t", "\\t").replace("\u0000", "|") + "]";
  }

  /** Every syntax a consumer accepts the password in, encoded for that consumer. */
  private static List<Plant> plants(String pw) {
    List<Plant> plants = new ArrayList<>();
    // libpq URLs: the password raw up to its '@' (libpq stops at the first '@' and '/').
    String libpq = percentEncoded(pw, c -> c == '@' || c == '/' || c == '%');
    plants.add(new Plant("libpq URL in a shell word", "pgbench -c 2 'postgresql://bench:", single(libpq),
        "@db.example:5432/bench?sslmode=require'", true));
    plants.add(new Plant("libpq URL echoed", "# connecting to postgresql://bench:",
        percentEncoded(pw, c -> c == '@' || c == '/' || c == '%' || Character.isWhitespace(c)),
        "@db.example:5432/bench, 2 clients", false));
    // JDBC: pgjdbc has no user info (its warnings print the URL as given), a query, ;-parameters.
    plants.add(new Plant("JDBC user info in pgjdbc's warning",
        "WARNING: JDBC URL must contain a / at the end of the host or port: jdbc:postgresql://bench:",
        percentEncoded(pw, Character::isWhitespace), "@db.example:5432/bench", false));
    plants.add(new Plant("JDBC query", "url=jdbc:postgresql://db.example:5432/bench?user=bench&password=",
        pgjdbcQuery(pw), "&ssl=true", false));
    plants.add(new Plant("JDBC query in a shell word", "loadgen --jdbc-url 'jdbc:postgresql://db.example/bench?password=",
        single(percentEncoded(pw, c -> c == '&' || c == '%' || c == '+')), "&ssl=true' --clients 2", true));
    plants.add(new Plant("JDBC ;-parameters", "jdbc:sqlserver://db.example:1433;user=bench;password={",
        pw.replace("}", "}}"), "};databaseName=bench", false));
    // libpq key=value: quoted with \' and \\, or unquoted with backslashes; alone and in a shell word.
    String quoted = "'" + pw.replace("\\", "\\\\").replace("'", "\\'") + "'";
    plants.add(new Plant("libpq key=value quoted", "host=db.example port=5432 user=bench password=", quoted,
        " dbname=bench", false));
    plants.add(new Plant("libpq key=value escaped", "host=db.example user=bench password=", backslashed(pw),
        " dbname=bench sslmode=require", false));
    plants.add(new Plant("libpq key=value in a shell word", "pgbench -c 2 'host=db.example password=", single(quoted),
        " dbname=bench'", true));
    // Shell words: every POSIX quoting, as an environment assignment and as an option's value.
    for (String[] q : shellQuotings(pw)) {
      // The quotes stay around the marker: they are the line's, not the password's.
      plants.add(new Plant("PGPASSWORD " + q[0], "PGPASSWORD=" + q[1], q[2], q[3] + " pgbench -c 8 -T 60", true));
      plants.add(new Plant("export " + q[0], "export PGPASSWORD=" + q[1], q[2], q[3] + "; pgbench -c 8", false));
      plants.add(new Plant("--pgsql-password= " + q[0], "sysbench --pgsql-user=bench --pgsql-password=" + q[1], q[2],
          q[3] + " --pgsql-host=127.0.0.1 oltp_read_only run", true));
      // As words (quotes gone), "--mysql-password -x" is an option and its flag: picocli's reading.
      plants.add(new Plant("--mysql-password " + q[0], "sysbench --mysql-user=bench --mysql-password " + q[1], q[2],
          q[3] + " --mysql-host=h oltp_read_only run", !pw.startsWith("-")));
    }
    // Echoed by a tool or a harness that dropped the quotes: one line, as printed.
    if (echoable(pw)) {
      plants.add(new Plant("PGPASSWORD echoed", "PGPASSWORD=", pw, "\nPGHOST=db.example", false));
      plants.add(new Plant("--pgsql-password= echoed", "/usr/bin/sysbench --pgsql-user=bench --pgsql-password=", pw,
          " --pgsql-host=127.0.0.1 --pgsql-port=5432 run", false));
      plants.add(new Plant("--mysql-password echoed", "sysbench --mysql-password ", pw, " --mysql-host h run", false));
    }
    // JSON strings: a service account's key, a config, and JSON inside a JSON string.
    plants.add(new Plant("JSON", "{\"type\": \"service_account\", \"private_key\": \"", json(pw),
        "\", \"client_email\": \"x@p.iam.gserviceaccount.com\"}", false));
    plants.add(new Plant("JSON in JSON", "{\"config\": \"{\\\"user\\\": \\\"bench\\\", \\\"password\\\": \\\"",
        json(json(pw)), "\\\"}\"}", false));
    plants.add(new Plant("Python repr", "{'user': 'bench', 'password': '", pw.replace("\\", "\\\\").replace("'", "\\'"),
        "'}", false));
    // PEM: the private key in --conf, as lines (a debug log of the settings) and JSON-escaped.
    String begin = "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n";
    String end = "\n-----END PRIVATE KEY-----\n";
    plants.add(new Plant("PEM in a settings map", "{spark.hadoop.fs.gs.auth.service.account.private.key=" + begin, pw,
        end + ", spark.master=local[2]}", false));
    plants.add(new Plant("PEM JSON-escaped in --conf", "--conf spark.hadoop.fs.gs.auth.service.account.private.key="
        + json(begin), json(pw), json(end) + " --conf spark.sql.shuffle.partitions=4", false));
    plants.add(new Plant("PEM in a JSON key file", "{\"private_key_id\": \"1\", \"private_key\": \"" + json(begin), json(pw),
        json(end) + "\", \"client_id\": \"2\"}", false));
    // A location: percent-encoded as Hadoop's URI parser needs it.
    plants.add(new Plant("s3a location", "s3a://AKIAIOSFODNN7EXAMPLE:", percentEncoded(pw, c -> !isUnreserved(c)),
        "@bucket/warehouse: a location must not carry credentials", false));
    return plants;
  }

  /**
   * A value echoed without its quotes is one value only to a reader who knows where it ends: one line
   * of words, not led by a quote, none of which is an option ({@code -x}) or an assignment ({@code
   * NAME=…}), which is where such a value is taken to end.
   */
  private static boolean echoable(String pw) {
    if (pw.isBlank() || pw.indexOf('\n') >= 0 || pw.indexOf('\t') >= 0 || !pw.equals(pw.strip())) {
      return false;
    }
    for (String word : pw.split(" +")) {
      if (word.startsWith("-") || word.matches("[A-Za-z0-9_.]+=.*")) {
        return false;
      }
    }
    return "'\"".indexOf(pw.charAt(0)) < 0;
  }

  /** POSIX quotings of a word, each {name, opening quote, inside, closing quote}: single, double, backslashes (no newline: it would continue the line). */
  private static List<String[]> shellQuotings(String pw) {
    List<String[]> out = new ArrayList<>();
    out.add(new String[] {"single-quoted", "'", single(pw), "'"});
    StringBuilder d = new StringBuilder();
    for (char c : pw.toCharArray()) {
      if ("\"\\$`".indexOf(c) >= 0) {
        d.append('\\');
      }
      d.append(c);
    }
    out.add(new String[] {"double-quoted", "\"", d.toString(), "\""});
    if (pw.indexOf('\n') < 0) {
      StringBuilder b = new StringBuilder();
      for (char c : pw.toCharArray()) {
        if (!Character.isLetterOrDigit(c)) {
          b.append('\\');
        }
        b.append(c);
      }
      out.add(new String[] {"backslashed", "", b.toString(), ""});
    }
    return out;
  }

  /** The inside of a single-quoted shell word: a quote closes, is escaped, and reopens ({@code '\''}). */
  private static String single(String s) {
    return s.replace("'", "'\\''");
  }

  /** libpq's unquoted value: blanks, quotes and backslashes escaped by a backslash. */
  private static String backslashed(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (Character.isWhitespace(c) || c == '\'' || c == '\\') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.toString();
  }

  /** What pgjdbc's URL decoder needs encoded in a parameter: its separator, '%' and '+', and blanks in a line. */
  private static String pgjdbcQuery(String s) {
    return percentEncoded(s, c -> c == '&' || c == '%' || c == '+' || Character.isWhitespace(c));
  }

  private static boolean isUnreserved(char c) {
    return c < 128 && (Character.isLetterOrDigit(c) || "-._~".indexOf(c) >= 0);
  }

  private static String percentEncoded(String s, Function<Character, Boolean> encode) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (encode.apply(c)) {
        for (byte x : String.valueOf(c).getBytes(StandardCharsets.UTF_8)) {
          b.append('%').append(String.format(Locale.ROOT, "%02X", x & 0xff));
        }
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /** {@code s} as the inside of a JSON string. */
  private static String json(String s) {
    try {
      String quoted = Json.mapper().writeValueAsString(s);
      return quoted.substring(1, quoted.length() - 1);
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A command line's words as a POSIX shell gives them to the program. */
  static List<String> shellWords(String line) {
    List<String> words = new ArrayList<>();
    StringBuilder word = null;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'') {
        int close = line.indexOf('\'', i + 1);
        word = word == null ? new StringBuilder() : word;
        word.append(line, i + 1, close);
        i = close;
      } else if (c == '"') {
        word = word == null ? new StringBuilder() : word;
        for (i++; line.charAt(i) != '"'; i++) {
          if (line.charAt(i) == '\\' && "\"\\$`\n".indexOf(line.charAt(i + 1)) >= 0) {
            i++;
          }
          word.append(line.charAt(i));
        }
      } else if (c == '\\') {
        word = word == null ? new StringBuilder() : word;
        word.append(line.charAt(++i));
      } else if (Character.isWhitespace(c)) {
        if (word != null) {
          words.add(word.toString());
          word = null;
        }
      } else {
        word = word == null ? new StringBuilder() : word;
        word.append(c);
      }
    }
    if (word != null) {
      words.add(word.toString());
    }
    return words;
  }
}
