package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.redaction.Redaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import org.postgresql.Driver;
import org.postgresql.PGProperty;

/**
 * A database to connect to: the JDBC URL as the user gave it (without credentials), the user,
 * and the password found by {@link PgPass} (never from the command line).
 *
 * <p>{@link #toString()} and {@link #safeUrl()} never contain the password, and the URL a user
 * passes may not carry one either: a password on a command line ends up in shell histories and
 * process lists.
 */
public final class JdbcTarget {
  private final String url;
  private final String user;
  private final String password;
  private final String host;
  private final String port;
  private final String database;

  private JdbcTarget(String url, String user, String password, String host, String port, String database) {
    this.url = url;
    this.user = user;
    this.password = password;
    this.host = host;
    this.port = port;
    this.database = database;
  }

  /**
   * Parses {@code url} and finds the password for it.
   *
   * @param user {@code --user}, or null to take the URL's {@code user} parameter or the OS user
   * @param env the environment ({@code PGPASSWORD}, {@code PGPASSFILE})
   * @throws BadInputException for a URL that is not PostgreSQL's or that carries a password
   */
  public static JdbcTarget of(String url, String user, Map<String, String> env) {
    Properties parsed = checkUrl(url);
    String urlUser = PGProperty.USER.getOrDefault(parsed);
    String effectiveUser = user != null && !user.isBlank() ? user
        : urlUser != null && !urlUser.isBlank() ? urlUser
        : System.getProperty("user.name", "postgres");
    String host = firstOf(PGProperty.PG_HOST.getOrDefault(parsed));
    String port = firstOf(PGProperty.PG_PORT.getOrDefault(parsed));
    String database = PGProperty.PG_DBNAME.getOrDefault(parsed);
    Optional<String> password = PgPass.lookup(new PgPass.Key(host, port, database, effectiveUser), env);
    return new JdbcTarget(stripSecrets(url), effectiveUser, password.orElse(null), host, port, database);
  }

  /**
   * The URL's form, without connecting or reading a password: PostgreSQL's, parseable, and carrying
   * no credentials (refused without repeating them).
   *
   * @return its properties as pgjdbc parses them
   * @throws BadInputException naming what is wrong
   */
  public static Properties checkUrl(String url) {
    if (url == null || !url.startsWith("jdbc:postgresql:")) {
      throw new BadInputException("--jdbc-url must start with jdbc:postgresql: (loadgen speaks PostgreSQL only)");
    }
    // Checked before parsing: pgjdbc takes "u:PW@host" for a host name, which then shows in every message.
    if (Redaction.carriesCredentials(url)) {
      throw passwordInUrl();
    }
    Properties parsed = Driver.parseURL(url, new Properties());
    if (parsed == null) {
      throw new BadInputException("--jdbc-url is not a valid PostgreSQL JDBC URL: " + stripSecrets(url));
    }
    for (String name : parsed.stringPropertyNames()) {
      if (Redaction.namesSecret(name)) {
        throw passwordInUrl();
      }
    }
    return parsed;
  }

  /** A target without a password (e.g. an embedded server with trust authentication). */
  public static JdbcTarget trusted(String url, String user) {
    Properties parsed = Driver.parseURL(url, new Properties());
    return new JdbcTarget(url, user, null, firstOf(PGProperty.PG_HOST.getOrDefault(parsed)),
        firstOf(PGProperty.PG_PORT.getOrDefault(parsed)), PGProperty.PG_DBNAME.getOrDefault(parsed));
  }

  private static BadInputException passwordInUrl() {
    return new BadInputException("--jdbc-url must not carry a password (it would end up in shell histories and "
        + "process lists): set PGPASSWORD or use ~/.pgpass or PGPASSFILE");
  }

  private static String firstOf(String commaSeparated) {
    return commaSeparated == null ? null : commaSeparated.split(",")[0];
  }

  /**
   * The URL without {@code user} and any parameter that names a secret ({@link Redaction#namesSecret}),
   * for manifests, logs and errors. Unparseable parameters are dropped rather than risked.
   */
  static String stripSecrets(String url) {
    int q = url.indexOf('?');
    if (q < 0) {
      return Redaction.scrub(url);
    }
    List<String> kept = new ArrayList<>();
    for (String param : url.substring(q + 1).split("&")) {
      int eq = param.indexOf('=');
      String name = (eq < 0 ? param : param.substring(0, eq)).toLowerCase(Locale.ROOT);
      if (!name.isEmpty() && !name.equals("user") && !Redaction.namesSecret(name)) {
        kept.add(param);
      }
    }
    String base = Redaction.scrub(url.substring(0, q));
    return kept.isEmpty() ? base : base + "?" + String.join("&", kept);
  }

  /** The URL without credentials. */
  public String safeUrl() {
    return url;
  }

  public String user() {
    return user;
  }

  public boolean hasPassword() {
    return password != null;
  }

  public String host() {
    return host;
  }

  public String port() {
    return port;
  }

  public String database() {
    return database;
  }

  /**
   * Removes the password from a message (exception texts are built by drivers and pools, and
   * could echo a connection string): this target's password wherever it appears, and whatever
   * {@link Redaction} finds. Passwords shorter than 4 characters are not searched for: that would
   * mangle ordinary words, and such a password is no secret anyway.
   */
  public String scrub(String message) {
    if (message == null || password == null || password.length() < 4) {
      return Redaction.scrub(message);
    }
    return Redaction.scrub(message.replace(password, Redaction.MARKER));
  }

  /** Connection properties: the user, the password (if any) and {@code extra}. */
  public Properties connectionProperties(Properties extra) {
    Properties props = new Properties();
    props.putAll(extra);
    PGProperty.USER.set(props, user);
    if (password != null) {
      PGProperty.PASSWORD.set(props, password);
    }
    return props;
  }

  @Override
  public String toString() {
    return url + " as " + user;
  }
}
