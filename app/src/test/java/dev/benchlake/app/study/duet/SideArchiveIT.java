package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.LoadgenClassPath;
import dev.benchlake.loadgen.LoadgenMain;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A duet's sides start on their class-data-sharing archive (app/src/main/launcher/cds-train.sh):
 * bin/benchlake names it, the side command {@link DuetPair} makes carries it, and a JVM started on
 * the class path a side gets from the launcher's maps it ({@code -Xshare:on} refuses to start
 * otherwise). A JVM maps an archive only for the class path it was made with, so this is what can
 * silently break: a launcher whose side class path the training did not reproduce.
 */
@org.junit.jupiter.api.Tag("integration")
class SideArchiveIT {
  @TempDir
  Path dir;

  @Test
  void aSideStartedFromTheLaunchersClassPathMapsItsArchive() throws Exception {
    Path archive = CommandRun.launcher(SideArchiveIT.class).getParent().getParent()
        .resolve("app/target/launcher/loadgen-side.jsa");
    assumeTrue(Files.isRegularFile(archive), "no side archive: the build skipped its training (-Dbenchlake.cds.skip)");
    CommandRun launcher = CommandRun.benchlake(SideArchiveIT.class, dir,
        Map.of("BENCHLAKE_JAVA_OPTS", "-XshowSettings:properties"), "--version");
    assertThat(launcher.exitCode()).as(launcher.stderr()).isZero();
    assertThat(property(launcher.stderr(), SideCommand.SIDE_ARCHIVE)).containsExactly(archive.toString());
    String launcherClassPath = String.join(File.pathSeparator, property(launcher.stderr(), "java.class.path"));

    // What DuetPair computes in the launcher's JVM: LoadgenClassPath in a JVM on the launcher's class path.
    Path sideClassPath = dir.resolve("side-class-path");
    Process cp = new ProcessBuilder(javaPath(), "-cp", launcherClassPath, LoadgenClassPath.class.getName())
        .redirectErrorStream(true).redirectOutput(sideClassPath.toFile()).start();
    assertThat(cp.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(cp.exitValue()).isZero();

    String sideEntries = Files.readString(sideClassPath, StandardCharsets.UTF_8).strip();
    for (String entry : sideEntries.split(File.pathSeparator)) {
      assumeTrue(Files.getLastModifiedTime(Path.of(entry)).compareTo(Files.getLastModifiedTime(archive)) <= 0,
          "the side archive is older than " + entry + ": the build that made the jar skipped the training");
    }

    List<String> side = sideCommand(archive.toString());
    assertThat(side).contains("-XX:SharedArchiveFile=" + archive, "-Xshare:auto");
    // The side's JVM with its flags, on the class path DuetPair makes in the launcher's JVM; the
    // archive required (-Xshare:on) and every class load logged.
    List<String> jvm = new ArrayList<>(side.subList(side.indexOf(javaPath()), side.indexOf("-cp")));
    jvm.replaceAll(flag -> flag.equals("-Xshare:auto") ? "-Xshare:on" : flag);
    jvm.addAll(List.of("-Xlog:class+load=info", "-cp", sideEntries,
        LoadgenMain.class.getName(), "--version"));
    Path out = dir.resolve("side.out");
    Process p = new ProcessBuilder(jvm).redirectErrorStream(true).redirectOutput(out.toFile()).start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    List<String> lines = Files.readAllLines(out, StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as(String.join("\n", lines.subList(0, Math.min(20, lines.size())))).isZero();
    long shared = lines.stream().filter(l -> l.contains("source: shared objects file")).count();
    long fromJars = lines.stream().filter(l -> l.contains("source: jar:") || l.contains("source: file:")).count();
    assertThat(shared).as("classes mapped from the archive (%d loaded from jars)", fromJars).isGreaterThan(1_000);
    assertThat(fromJars).as("classes loaded from jars").isLessThan(shared / 10);
  }

  @Test
  void withoutAnArchiveTheSideStartsAsBefore() throws Exception {
    assertThat(sideCommand(dir.resolve("absent.jsa").toString())).noneMatch(flag -> flag.startsWith("-XX:SharedArchiveFile"))
        .doesNotContain("-Xshare:auto");
    assertThat(sideCommand("")).noneMatch(flag -> flag.startsWith("-XX:SharedArchiveFile"));
  }

  /** The command of a side, with {@link DuetPair#SIDE_ARCHIVE} set to {@code archive} while it is made. */
  private List<String> sideCommand(String archive) {
    String before = System.getProperty(SideCommand.SIDE_ARCHIVE);
    System.setProperty(SideCommand.SIDE_ARCHIVE, archive);
    try {
      return SideCommand.command(CpuList.parse("0"), null, null);
    } finally {
      if (before == null) {
        System.clearProperty(SideCommand.SIDE_ARCHIVE);
      } else {
        System.setProperty(SideCommand.SIDE_ARCHIVE, before);
      }
    }
  }

  private static String javaPath() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A property's value as {@code -XshowSettings:properties} prints it: {@code NAME = VALUE} then,
   * for a path, one more entry per line, indented deeper.
   */
  static List<String> property(String settings, String name) {
    List<String> values = new ArrayList<>();
    String prefix = "    " + name + " = ";
    boolean in = false;
    for (String line : settings.lines().toList()) {
      if (line.startsWith(prefix)) {
        values.add(line.substring(prefix.length()).strip());
        in = true;
      } else if (in && line.startsWith("        ")) {
        values.add(line.strip());
      } else {
        in = false;
      }
    }
    return values;
  }
}
