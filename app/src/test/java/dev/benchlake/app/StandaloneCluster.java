package dev.benchlake.app;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real Spark standalone cluster (one master, one worker) on 127.0.0.1, started from the jars
 * Maven resolved into {@code app/target/lib}, as a user would run one from a Spark distribution:
 * {@code SPARK_HOME/jars} holds Spark and its dependencies only (no benchlake, no Delta), so the
 * shaded {@code benchlake-spark.jar} must bring everything else.
 */
final class StandaloneCluster implements AutoCloseable {
  private static final Duration START_TIMEOUT = Duration.ofSeconds(90);
  private static final List<String> NOT_IN_A_SPARK_DISTRIBUTION = List.of("benchlake-", "delta-", "picocli-");

  private final Path appTarget;
  private final Path workDir;
  private final Path sparkHome;
  private final List<String> jvmFlags;
  private final List<Process> daemons = new ArrayList<>();
  private int masterPort;
  private int masterWebPort;

  StandaloneCluster(Path appTarget, Path workDir) throws IOException {
    this.appTarget = appTarget;
    this.workDir = workDir;
    this.sparkHome = workDir.resolve("spark-home");
    this.jvmFlags = Arrays.asList(
        Files.readString(appTarget.resolve("launcher/jvm.options"), StandardCharsets.UTF_8).trim().split("\\s+"));
  }

  String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  List<String> jvmFlags() {
    return jvmFlags;
  }

  Path sparkSubmitJar() {
    return appTarget.resolve("benchlake-spark.jar");
  }

  /** Lays out SPARK_HOME, starts the master and a worker, and waits until the worker is alive. */
  void start() throws IOException, InterruptedException {
    Path jars = Files.createDirectories(sparkHome.resolve("jars"));
    try (Stream<Path> lib = Files.list(appTarget.resolve("lib"))) {
      for (Path jar : (Iterable<Path>) lib::iterator) {
        String name = jar.getFileName().toString();
        if (NOT_IN_A_SPARK_DISTRIBUTION.stream().noneMatch(name::startsWith)) {
          Files.createSymbolicLink(jars.resolve(name), jar.toAbsolutePath());
        }
      }
    }
    masterPort = freePort();
    masterWebPort = freePort();
    daemons.add(startJava("master", "org.apache.spark.deploy.master.Master",
        "--host", "127.0.0.1", "--port", Integer.toString(masterPort), "--webui-port", Integer.toString(masterWebPort)));
    waitFor("master", () -> masterJson().contains("ALIVE"));
    daemons.add(startJava("worker", "org.apache.spark.deploy.worker.Worker",
        "--host", "127.0.0.1", "--cores", "2", "--memory", "2g", "--webui-port", Integer.toString(freePort()),
        "--work-dir", workDir.resolve("worker").toString(), masterUrl()));
    waitFor("worker", () -> aliveWorkers(masterJson()) >= 1);
  }

  /** Runs {@code spark-submit --class SparkMain benchlake-spark.jar args…} in client mode. */
  Result submit(String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(
        "--master", masterUrl(),
        "--deploy-mode", "client",
        "--conf", "spark.driver.host=127.0.0.1",
        "--conf", "spark.executor.memory=1g",
        "--conf", "spark.executor.extraJavaOptions=" + String.join(" ", jvmFlags),
        "--class", "dev.benchlake.app.SparkMain",
        sparkSubmitJar().toString()));
    command.addAll(List.of(args));
    Path out = workDir.resolve("submit-" + System.nanoTime() + ".out");
    Path err = workDir.resolve("submit-" + System.nanoTime() + ".err");
    Process p = processBuilder("org.apache.spark.deploy.SparkSubmit", command)
        .redirectOutput(out.toFile())
        .redirectError(err.toFile())
        .start();
    if (!p.waitFor(5, TimeUnit.MINUTES)) {
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      throw new IllegalStateException("spark-submit did not finish in 5 minutes; see " + err);
    }
    return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  /** What a spark-submit printed and how it exited. */
  record Result(int exitCode, String stdout, String stderr) {}

  /**
   * Waits until the master lists at least {@code count} finished applications (it learns of an
   * application's end a moment after the driver exits) and returns how many it lists.
   */
  int awaitCompletedApplications(int count) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    int completed = completedApplications();
    while (completed < count && System.nanoTime() < deadline) {
      Thread.sleep(250);
      completed = completedApplications();
    }
    return completed;
  }

  /** Applications the master has seen finish (to prove the job ran on the cluster). */
  int completedApplications() {
    try {
      JsonNode apps = Json.mapper().readTree(masterJson()).path("completedapps");
      return apps.isArray() ? apps.size() : 0;
    } catch (IOException e) {
      return 0;
    }
  }

  @Override
  public void close() {
    for (int i = daemons.size() - 1; i >= 0; i--) {
      Process p = daemons.get(i);
      p.descendants().forEach(ProcessHandle::destroy);
      p.destroy();
      try {
        if (!p.waitFor(20, TimeUnit.SECONDS)) {
          p.descendants().forEach(ProcessHandle::destroyForcibly);
          p.destroyForcibly();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  private Process startJava(String name, String mainClass, String... args) throws IOException {
    return processBuilder(mainClass, List.of(args))
        .redirectOutput(workDir.resolve(name + ".out").toFile())
        .redirectError(workDir.resolve(name + ".err").toFile())
        .start();
  }

  private ProcessBuilder processBuilder(String mainClass, List<String> args) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmFlags);
    command.addAll(List.of("-Xmx1g", "-cp", sparkHome.resolve("jars") + "/*", mainClass));
    command.addAll(args);
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("SPARK_HOME", sparkHome.toString());
    // Without it a worker looks for a source build ("Cannot find any build directories").
    pb.environment().put("SPARK_SCALA_VERSION", "2.13");
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    return pb;
  }

  private String masterJson() {
    try {
      HttpResponse<String> response = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + masterWebPort + "/json/"))
              .timeout(Duration.ofSeconds(5)).build(),
          HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      return response.body();
    } catch (IOException e) {
      return "";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "";
    }
  }

  private static int aliveWorkers(String json) {
    try {
      return Json.mapper().readTree(json).path("aliveworkers").asInt(0);
    } catch (IOException e) {
      return 0;
    }
  }

  private void waitFor(String what, java.util.function.BooleanSupplier ready) throws InterruptedException, IOException {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    while (!ready.getAsBoolean()) {
      for (Process p : daemons) {
        if (!p.isAlive()) {
          throw new IllegalStateException("the Spark " + what + " exited; see " + workDir);
        }
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the Spark " + what + " did not start in " + START_TIMEOUT + "; see " + workDir);
      }
      Thread.sleep(250);
    }
  }

  private static int freePort() {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
