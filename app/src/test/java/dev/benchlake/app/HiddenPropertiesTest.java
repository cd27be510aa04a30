package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.testing.ModuleDirs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No hidden system property changes a measurement (issue 45): every {@code benchlake.*} name in the
 * main sources of every module is one of {@link #ALLOWED}, each with why it is no knob of what is
 * measured. A knob a user may turn is an option, checked and recorded (e.g. {@code --swap-period});
 * an experiment's switch lives in bench/ or the tests. Read from the sources: a name is any string
 * literal that starts with {@code benchlake.}.
 */
class HiddenPropertiesTest {
  /** The names main code may read, and why each is not a knob of a measurement. */
  private static final Map<String, String> ALLOWED = Map.of(
      "benchlake.loadgen.jvm-flags", "the launcher's wiring: bin/benchlake hands a duet's side JVMs the flags of "
          + "jvm-profile.sh that every loadgen run gets",
      "benchlake.loadgen.side-archive", "the launcher's wiring: the side JVMs' class-data-sharing archive, which only "
          + "shortens their start, before any step (a JVM that cannot map it starts without)",
      "benchlake.duet.holder", "a duet's coordinator tells its side process who holds it (who cleans up)",
      "benchlake.duet.group", "a duet's coordinator tells its side process its cgroup (removed if the coordinator dies)",
      "benchlake.study", "a side's embedded servers record the study folder that owns them (study clean)",
      "benchlake.ingest.accounts-budget-bytes", "ingest's heap budget for accounting rows: when chunks are parsed "
          + "twice, never what is stored",
      "benchlake.ingest.progress.interval.s", "how often ingest prints progress lines",
      "benchlake.lock.lease.seconds", "a Hadoop setting (spark.hadoop.…) of the S3 lock's lease, not a system property",
      "benchlake.loadgen.resources", "bench/resources_overhead.py's a/a switches the resource readings off to "
          + "measure their cost; such a run records every counter as not measured, with that reason, in its manifest");

  private static final Pattern NAME = Pattern.compile("\"(benchlake\\.[A-Za-z0-9_.-]+)\"");

  @Test
  void everyBenchlakePropertyInMainCodeIsWiringWithAReason() throws IOException {
    Map<String, String> found = new TreeMap<>();
    Path repository = ModuleDirs.repository(HiddenPropertiesTest.class);
    try (Stream<Path> modules = Files.list(repository)) {
      for (Path main : modules.map(m -> m.resolve("src/main/java")).filter(Files::isDirectory).sorted().toList()) {
        try (Stream<Path> files = Files.walk(main)) {
          for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            Matcher m = NAME.matcher(Files.readString(file, StandardCharsets.UTF_8));
            while (m.find()) {
              found.put(m.group(1), repository.relativize(file).toString());
            }
          }
        }
      }
    }
    assertThat(found).as("benchlake.* names in main sources").isNotEmpty();
    found.keySet().removeAll(ALLOWED.keySet());
    assertThat(found).as("system properties no one may see or check, with where they are read: make each an option "
        + "or move it to bench/ or the tests").isEmpty();
  }
}
