package dev.benchlake.loadgen.db;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where loadgen finds a password, the way libpq does (pgjdbc ignores {@code PGPASSWORD}):
 * {@code PGPASSWORD} first, then the password file named by {@code PGPASSFILE}, else
 * {@code ~/.pgpass} ({@code %APPDATA%\postgresql\pgpass.conf} on Windows), {@code ~} being
 * {@code $HOME} when set, as for libpq.
 *
 * <p>A password file line is {@code hostname:port:database:username:password}; {@code *} matches
 * anything in the first four fields, {@code \:} and {@code \\} escape; {@code #} starts a
 * comment line; the first matching line wins. Like libpq, a file that others may read is ignored
 * on systems with POSIX permissions.
 */
public final class PgPass {
  private PgPass() {}

  /** What a password is looked up for. */
  public record Key(String host, String port, String database, String user) {}

  /** The password for {@code key}, from {@code env} and the file system, if any. */
  public static Optional<String> lookup(Key key, Map<String, String> env) {
    String fromEnv = env.get("PGPASSWORD");
    if (fromEnv != null && !fromEnv.isEmpty()) {
      return Optional.of(fromEnv);
    }
    Path file = passwordFile(env);
    if (file == null || !Files.isRegularFile(file) || !privateFile(file)) {
      return Optional.empty();
    }
    try {
      return match(Files.readAllLines(file, StandardCharsets.UTF_8), key);
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  static Path passwordFile(Map<String, String> env) {
    String explicit = env.get("PGPASSFILE");
    if (explicit != null && !explicit.isBlank()) {
      return Path.of(explicit);
    }
    String appData = env.get("APPDATA");
    if (System.getProperty("os.name", "").startsWith("Windows") && appData != null) {
      return Path.of(appData, "postgresql", "pgpass.conf");
    }
    // libpq takes ~ from $HOME, then from the password database; Java's user.home is only the
    // latter, so "HOME=/elsewhere benchlake loadgen" would miss the ~/.pgpass psql uses.
    String home = env.get("HOME");
    if (home == null || home.isBlank()) {
      home = System.getProperty("user.home");
    }
    return home == null ? null : Path.of(home, ".pgpass");
  }

  private static boolean privateFile(Path file) {
    try {
      return Files.getPosixFilePermissions(file).stream()
          .noneMatch(p -> p.name().startsWith("GROUP") || p.name().startsWith("OTHERS"));
    } catch (UnsupportedOperationException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** The password of the first line matching {@code key}. */
  static Optional<String> match(List<String> lines, Key key) {
    for (String line : lines) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      List<String> fields = split(line);
      if (fields.size() < 5) {
        continue;
      }
      if (matches(fields.get(0), key.host()) && matches(fields.get(1), key.port())
          && matches(fields.get(2), key.database()) && matches(fields.get(3), key.user())) {
        return Optional.of(fields.get(4));
      }
    }
    return Optional.empty();
  }

  private static boolean matches(String pattern, String value) {
    return pattern.equals("*") || pattern.equals(value == null ? "" : value);
  }

  /** Splits on unescaped colons; like libpq, the password ends at the next unescaped colon. */
  private static List<String> split(String line) {
    List<String> fields = new ArrayList<>(5);
    StringBuilder current = new StringBuilder();
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\\' && i + 1 < line.length()) {
        current.append(line.charAt(++i));
      } else if (c == ':') {
        fields.add(current.toString());
        current.setLength(0);
        if (fields.size() == 5) {
          return fields;
        }
      } else {
        current.append(c);
      }
    }
    fields.add(current.toString());
    return fields;
  }
}
