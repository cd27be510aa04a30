package dev.benchlake.app.s3;

import dev.benchlake.warehouse.fs.S3Lease;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * A real S3-compatible server on a free loopback port: S3Proxy (Apache-2.0) with its file system
 * store, a child JVM started from its self-contained jar (its own Jetty, Jackson and AWS SDK, apart
 * from Spark's), AWS signature checks on, with credentials made up for this run. Its file system
 * store creates an object under {@code If-None-Match: *} by linking it into place, so a second
 * such PUT of one key fails (412) however the two interleave.
 */
final class S3ProxyServer implements AutoCloseable {
  static final String BUCKET = "benchlake-it";
  private static final Duration START_LIMIT = Duration.ofSeconds(90);

  private final Process process;
  private final int port;
  private final String accessKey;
  private final String secretKey;
  private final Path log;

  private S3ProxyServer(Process process, int port, String accessKey, String secretKey, Path log) {
    this.process = process;
    this.port = port;
    this.accessKey = accessKey;
    this.secretKey = secretKey;
    this.log = log;
  }

  /** Starts the server with its data under {@code dir}; returns once it answers HTTP. */
  static S3ProxyServer start(Path dir) throws IOException, InterruptedException {
    Path jar = Path.of(System.getProperty("benchlake.s3proxy.jar", "target/s3proxy/s3proxy.jar"));
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(jar + " is missing: it is copied by app's pom in pre-integration-test (mvn verify)");
    }
    Path data = Files.createDirectories(dir.resolve("s3-data"));
    Files.createDirectories(data.resolve(BUCKET)); // a bucket of the file system store is a folder
    int port = freePort();
    String accessKey = "AKIA" + UUID.randomUUID().toString().replace("-", "").substring(0, 16).toUpperCase(java.util.Locale.ROOT);
    String secretKey = "s3-secret-" + UUID.randomUUID();
    Path properties = dir.resolve("s3proxy.properties");
    Files.writeString(properties, String.join("\n",
        "s3proxy.endpoint=http://127.0.0.1:" + port,
        "s3proxy.authorization=aws-v2-or-v4",
        "s3proxy.identity=" + accessKey,
        "s3proxy.credential=" + secretKey,
        "jclouds.provider=filesystem",
        "jclouds.filesystem.basedir=" + data) + "\n", StandardCharsets.UTF_8);
    Path log = dir.resolve("s3proxy.log");
    List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-DLOG_LEVEL=warn", "-DJETTY_LOG_LEVEL=warn",
        "-jar", jar.toString(), "--properties", properties.toString());
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    S3ProxyServer server = new S3ProxyServer(process, port, accessKey, secretKey, log);
    server.awaitUp();
    return server;
  }

  private void awaitUp() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + START_LIMIT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new IllegalStateException("S3Proxy exited " + process.exitValue() + ":\n" + Files.readString(log));
      }
      try {
        HttpURLConnection c = (HttpURLConnection) URI.create(endpoint() + "/").toURL().openConnection();
        c.setConnectTimeout(1_000);
        c.getResponseCode(); // any answer (403: unsigned) means it serves
        c.disconnect();
        return;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new IllegalStateException("S3Proxy did not answer in " + START_LIMIT.toSeconds() + " s:\n" + Files.readString(log));
  }

  String endpoint() {
    return "http://127.0.0.1:" + port;
  }

  /** {@code s3a://BUCKET/path}. */
  String uri(String path) {
    return "s3a://" + BUCKET + "/" + path;
  }

  String accessKey() {
    return accessKey;
  }

  String secretKey() {
    return secretKey;
  }

  /**
   * The s3a settings of this server, without credentials, for this bucket only (s3a's per-bucket
   * form): plain HTTP to the loopback endpoint, path-style addresses (no DNS name per bucket), and
   * few, quick retries (a test that fails should fail in seconds); and a short lease for
   * benchlake's locks.
   */
  Map<String, String> hadoopSettings() {
    String prefix = "fs.s3a.bucket." + BUCKET + ".";
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put(prefix + "endpoint", endpoint());
    settings.put(prefix + "endpoint.region", "us-east-1");
    settings.put(prefix + "path.style.access", "true");
    settings.put(prefix + "connection.ssl.enabled", "false");
    settings.put(prefix + "attempts.maximum", "2");
    settings.put(prefix + "retry.limit", "2");
    // benchlake's S3 locks: a killed holder's come back after 4 s, not a minute.
    settings.put(S3Lease.LEASE_SECONDS_KEY, "4");
    return settings;
  }

  /** The settings as {@code --conf spark.hadoop.K=V} arguments. */
  List<String> confArgs() {
    return hadoopSettings().entrySet().stream()
        .flatMap(e -> java.util.stream.Stream.of("--conf", "spark.hadoop." + e.getKey() + "=" + e.getValue())).toList();
  }

  /** The credentials as the standard AWS environment variables (what s3a's default chain reads). */
  Map<String, String> credentialEnv() {
    return Map.of("AWS_ACCESS_KEY_ID", accessKey, "AWS_SECRET_ACCESS_KEY", secretKey);
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
