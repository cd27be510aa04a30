package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Which commands bin/benchlake starts on a short-lived JVM (src/main/launcher/jvm-profile.sh):
 * exactly those that start no Spark session. A Spark command on C1 alone would run its hot loops
 * several times slower, so every Spark-bound form is checked, batch (which may run any command)
 * among them.
 */
class LauncherProfileTest {
  private static final Path PROFILE = Path.of("src/main/launcher/jvm-profile.sh");

  /** Whether {@code benchlake ARGS…} gets the short-lived JVM, with BENCHLAKE_JAVA_OPTS = {@code javaOpts}. */
  static boolean shortLived(String javaOpts, String... args) throws IOException, InterruptedException {
    String answer = run(javaOpts, "if short_lived \"$@\"; then echo yes; else echo no; fi", args);
    // Anything else (an error of the script, a stray echo) is a broken profile.
    assertThat(answer).as("the profile's only output for %s", List.of(args)).isIn("yes", "no");
    return answer.equals("yes");
  }

  /** The profile's output for {@code SCRIPT} run after sourcing it, with BENCHLAKE_JAVA_OPTS = {@code javaOpts}. */
  static String run(String javaOpts, String script, String... args) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of("bash", "-c", "source \"$0\"; " + script,
        PROFILE.toAbsolutePath().toString()));
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("BENCHLAKE_JAVA_OPTS", javaOpts);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    process.waitFor();
    return output.strip();
  }

  @Test
  void onlyLoadgenGetsTheLoadGeneratorJvm() throws Exception {
    String isLoadgen = "if loadgen_command \"$@\"; then echo yes; else echo no; fi";
    assertThat(run("", isLoadgen, "loadgen", "--quiet")).isEqualTo("yes");
    assertThat(run("", isLoadgen, "-V", "loadgen", "--serve")).isEqualTo("yes");
    assertThat(run("", isLoadgen)).isEqualTo("no");
    assertThat(run("", isLoadgen, "quickstart", "--out", "q")).isEqualTo("no");
    assertThat(run("", isLoadgen, "study", "versions")).isEqualTo("no");
    assertThat(run("", isLoadgen, "ingest", "--warehouse", "wh", "loadgen")).isEqualTo("no");
    String flags = "echo \"${loadgen_jvm_flags[*]}\"";
    String own = "-Djdk.net.usePlainSocketImpl=true -XX:MetaspaceSize=128m -XX:CompileThresholdScaling=0.2";
    assertThat(run("", flags)).isEqualTo(own + " -XX:+UseSerialGC");
    // A collector of the user's: the JVM would refuse two.
    assertThat(run("-Xmx1g -XX:+UseParallelGC", flags)).isEqualTo(own);
  }

  @Test
  void onlyCommandsWithoutSparkGetTheShortLivedJvm() throws Exception {
    Map<String, Boolean> cases = new java.util.LinkedHashMap<>();
    cases.put("", true);
    cases.put("--help", true);
    cases.put("-V", true);
    cases.put("help ingest", true);
    cases.put("runs --warehouse wh --json", true);
    cases.put("rejects --warehouse wh", true);
    cases.put("verify --warehouse wh", true);
    cases.put("export --warehouse wh --table runs --out r.csv", true);
    cases.put("export --table=step_metrics --warehouse wh --out -", true);
    // Spark-bound
    cases.put("export --warehouse wh --table tasks --out t.csv", false);
    cases.put("export --table=tasks --out t.csv", false);
    cases.put("export --warehouse wh --out t.csv", false);
    cases.put("runs --warehouse wh --master spark://h:7077", false);
    cases.put("runs --warehouse wh --conf=spark.driver.memory=2g", false);
    cases.put("export --warehouse wh --table runs --conf spark.x=1 --out r.csv", false);
    cases.put("-V ingest --warehouse wh runs", false);
    cases.put("ingest --warehouse runs f.txt", false);
    cases.put("compare --warehouse wh --baseline a=1 --candidate a=2 --out o", false);
    cases.put("trend --warehouse wh --by db_major --base 14 --out o", false);
    cases.put("upgrade --warehouse wh", false);
    cases.put("batch cmds.txt", false);
    cases.put("batch -", false);
    cases.put("loadgen --quiet", false);
    cases.put("quickstart --out q", false);
    cases.put("study versions", false);
    for (Map.Entry<String, Boolean> c : cases.entrySet()) {
      String[] args = c.getKey().isEmpty() ? new String[0] : c.getKey().split(" ");
      assertThat(shortLived("", args)).as("benchlake %s", c.getKey()).isEqualTo(c.getValue());
    }
    // spark.master set as spark-submit does: the small reads run on Spark.
    assertThat(shortLived("-Xmx2g -Dspark.master=local[2]", "runs")).isFalse();
    assertThat(shortLived("-Xmx2g", "runs")).isTrue();
  }
}
