package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.CgroupCpusets;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.cli.VersionProvider;
import dev.benchlake.loadgen.db.OrphanReaper;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code benchlake study clean}: stops and removes what studies and loadgen runs killed outright
 * ({@code kill -9}, a crash, a machine out of memory) left behind, which nobody alive will remove:
 * embedded servers whose owner is gone ({@link OrphanReaper}) and cgroup groups of duets whose
 * coordinator is gone ({@link CgroupCpusets#stale}). It never touches a server whose owner runs, a
 * folder benchlake did not make, or a group of a study that runs. It acts by default: everything
 * it removes is known dead, and leaving it costs the next benchmark its CPU and memory;
 * {@code --dry-run} only lists.
 */
@Command(name = "clean", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
    description = {
      "Stop and remove what killed studies and loadgen runs left: embedded PostgreSQL servers whose owner process "
          + "is gone (their clusters in the temp directory and in each --pg-dir), and the cgroup cpuset groups of "
          + "duets whose coordinator is gone. A server whose owner still runs, a folder benchlake did not make and "
          + "a running study's groups are never touched. Studies and loadgen do the same for their own folder "
          + "when they start; this is for a machine to be freed now.",
    },
    footer = {"", "Examples:",
      "  benchlake study clean --dry-run",
      "  benchlake study clean --pg-dir /data/pg",
      "", "Exit codes: 0 done (or nothing to do), 1 something could not be removed (named on stderr)."})
public final class CleanCommand implements Callable<Integer> {
  @Option(names = "--pg-dir", paramLabel = "DIR", description = "A folder where studies or loadgen put their servers' "
      + "clusters (their --pg-dir), besides the system temp directory (repeatable).")
  List<Path> pgDirs = new ArrayList<>();

  @Option(names = "--dry-run", description = "Only list what would be stopped and removed.")
  boolean dryRun;

  @Spec
  CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    Set<Path> dirs = new LinkedHashSet<>();
    dirs.add(Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize());
    pgDirs.forEach(d -> dirs.add(d.toAbsolutePath().normalize()));
    String verb = dryRun ? "would remove " : "removed ";
    int found = 0;
    int failed = 0;
    for (Path dir : dirs) {
      for (OrphanReaper.Orphan orphan : OrphanReaper.find(dir)) {
        found++;
        try {
          if (!dryRun) {
            OrphanReaper.remove(orphan);
          }
          out.println(verb + "the orphaned server " + orphan.describe());
        } catch (RuntimeException e) {
          failed++;
          err.println("benchlake study clean: cannot remove " + orphan.dir() + ": " + e.getMessage());
        }
      }
    }
    List<Path> groups = CgroupCpusets.locate().map(CgroupCpusets::stale).orElse(List.of());
    for (Path group : groups) {
      found++;
      try {
        if (!dryRun) {
          CgroupCpusets.remove(group);
        }
        out.println(verb + "the cgroup group " + group + " (its duet's coordinator is gone)");
      } catch (IOException e) {
        failed++;
        err.println("benchlake study clean: " + e.getMessage());
      }
    }
    if (found == 0) {
      out.println("Nothing to clean: no orphaned server in " + String.join(", ", dirs.stream().map(Path::toString)
          .toList()) + ", no cgroup group of a dead duet.");
    }
    out.flush();
    err.flush();
    return failed == 0 ? ExitCode.OK : ExitCode.FAILURE;
  }
}
