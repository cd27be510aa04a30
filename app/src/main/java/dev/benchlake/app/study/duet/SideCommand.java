package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import dev.benchlake.core.ProcessIdentity;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.LoadgenClassPath;
import dev.benchlake.loadgen.LoadgenMain;
import dev.benchlake.loadgen.SideSession;
import dev.benchlake.loadgen.db.ServerOwner;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of a duet's side process: how it is pinned (taskset, or a cgroup cpuset group
 * it joins first thing), this JVM with the launcher's flags for loadgen, loadgen's part of this
 * class path, and {@code --session stdio}. What runs in it is {@link SideProcess}'s; which set it
 * is on, {@link DuetSessions}'.
 */
public final class SideCommand {
  /** A side's JVM heap: loadgen's stays near 20 MB of old generation, its RSS under 400 MB. */
  private static final String CHILD_HEAP = "-Xmx768m";
  /**
   * The JVM flags bin/benchlake gives {@code benchlake loadgen} (app/src/main/launcher/jvm-profile.sh,
   * their one definition, measured there), passed on by the launcher in this property; absent when
   * the study runs in another JVM (tests), then a side runs on the JVM's defaults.
   */
  public static final String LOADGEN_JVM_FLAGS = "benchlake.loadgen.jvm-flags";
  /**
   * The class-data-sharing archive of a side's JVM (app/src/main/launcher/cds-train.sh makes it at
   * build time, on the class path below, and bin/benchlake names it in this property): the classes a
   * side loads mapped already parsed and verified, so that its JVM reaches its first step sooner. A
   * JVM that cannot use it (a rebuilt jar, another class path) starts as without it
   * ({@code -Xshare:auto}), quietly.
   */
  public static final String SIDE_ARCHIVE = "benchlake.loadgen.side-archive";
  /** loadgen's jars out of this JVM's class path: a side's JVM starts without searching Spark's. */
  private static final String SIDE_CLASS_PATH = LoadgenClassPath.of(System.getProperty("java.class.path"));

  private SideCommand() {}

  /**
   * The command of a side's process: how it is pinned, this JVM, loadgen's part of this class path,
   * and {@code --session stdio} (its runs come on stdin, {@link SideProcess}).
   *
   * @param cpus the CPU set taskset pins it to, when {@code group} is null
   * @param group the side's cpuset group, whose cgroup.procs a shell joins before it becomes the
   *     side's JVM (so that every process the side starts is in it); null: taskset pins it
   * @param study the study's folder, which the side's servers record as theirs ({@link ServerOwner}),
   *     or null
   */
  public static List<String> command(CpuList cpus, Path group, Path study) {
    List<String> command = new ArrayList<>(group == null ? List.of("taskset", "-c", cpus.toString())
        : List.of("sh", "-c", "echo $$ > \"$0\" && exec \"$@\"", group.resolve("cgroup.procs").toString()));
    command.addAll(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), CHILD_HEAP));
    // Who cleans up when this coordinator dies: the side (SideSession), which then needs to know
    // its coordinator and its group; and whose its servers were, for study clean to say.
    command.add("-D" + SideSession.HOLDER_PROPERTY + "=" + ProcessIdentity.current());
    if (group != null) {
      command.add("-D" + SideSession.GROUP_PROPERTY + "=" + group);
    }
    if (study != null) {
      command.add("-D" + ServerOwner.STUDY_PROPERTY + "=" + study);
    }
    for (String flag : System.getProperty(LOADGEN_JVM_FLAGS, "").split(" ")) {
      if (!flag.isBlank()) {
        command.add(flag);
      }
    }
    String archive = System.getProperty(SIDE_ARCHIVE, "");
    if (!archive.isEmpty() && Files.isRegularFile(Path.of(archive))) {
      command.addAll(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", "-Xlog:cds=error"));
    }
    command.addAll(List.of("-cp", SIDE_CLASS_PATH, LoadgenMain.class.getName(), "--session", "stdio"));
    return command;
  }

  /**
   * @throws BadInputException when taskset, which pins a side for a whole run, is not on the PATH
   */
  public static void requireTaskset() {
    String path = System.getenv("PATH");
    if (path != null) {
      for (String dir : path.split(File.pathSeparator)) {
        if (Files.isExecutable(Path.of(dir, "taskset"))) {
          return;
        }
      }
    }
    throw new BadInputException("--design duet pins each side with taskset, which is not on the PATH: install "
        + "util-linux (on Debian it is always there), or use --design interleaved");
  }
}
