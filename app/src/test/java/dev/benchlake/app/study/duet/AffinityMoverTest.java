package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.benchlake.core.CpuList;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Issue 46: the in-window swap's mover without root, on real processes. A "side" is a small JVM
 * (threads of its own beside the JVM's); its "server" is a process tree that is not under it ({@code
 * sh} with two {@code sleep}s, as a postmaster is not under the side's JVM), named by the supplier.
 * Every thread of all of them is read back from {@code /proc/PID/task/TID/status} after each move:
 * all on the set moved to, and counted as moved.
 */
class AffinityMoverTest {
  /** The side's JVM: three threads of its own beside the JVM's; it sleeps. */
  public static final class Side {
    public static void main(String[] args) throws Exception {
      for (int i = 0; i < 3; i++) {
        Thread t = new Thread(() -> sleepQuietly(), "worker-" + i);
        t.setDaemon(true);
        t.start();
      }
      System.out.println("ready");
      System.out.flush();
      sleepQuietly();
    }

    private static void sleepQuietly() {
      try {
        Thread.sleep(60_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Test
  void everyThreadOfTheSideAndOfItsServersTreeIsOnTheSetMovedTo() throws Exception {
    assumeTrue(ThreadAffinity.unavailable().isEmpty(), ThreadAffinity.unavailable().orElse(""));
    CpuList mine = CpuList.allowedForThisProcess().orElseThrow();
    assumeTrue(mine.size() >= 2, "one CPU");
    List<CpuList> halves = mine.split(mine.size() / 2);
    String classes = Path.of(Side.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    Process side = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xint", "-XX:+UseSerialGC", "-Xmx16m", "-cp", classes, Side.class.getName()).start();
    Process server = new ProcessBuilder("sh", "-c", "sleep 60 & sleep 60 & wait").start();
    try {
      String ready = new String(side.getInputStream().readNBytes("ready\n".length()), StandardCharsets.UTF_8);
      assertThat(ready).isEqualTo("ready\n");
      while (AffinityMover.tasks(server.pid()).isEmpty() || children(server.pid()) < 2) {
        Thread.sleep(10);
      }
      AffinityMover mover = new AffinityMover(side.pid(), () -> List.of(server.pid()));
      for (CpuList to : List.of(halves.get(0), halves.get(1), halves.get(0))) {
        int moved = mover.moveTo(to);
        List<CpuList> seen = new ArrayList<>();
        int tasks = 0;
        for (long pid : List.of(side.pid(), server.pid())) {
          for (long p : pid == side.pid() ? List.of(pid) : tree(pid)) {
            for (long tid : AffinityMover.tasks(p)) {
              readSet(p, tid).ifPresent(seen::add);
              tasks++;
            }
          }
        }
        assertThat(tasks).as("the side's JVM threads, the server's sh and two sleeps").isGreaterThan(8);
        assertThat(moved).as("tasks moved").isEqualTo(tasks);
        assertThat(seen).as("every task's set after the move to %s", to).hasSize(tasks).containsOnly(to);
      }
    } finally {
      side.destroyForcibly();
      server.descendants().forEach(ProcessHandle::destroyForcibly);
      server.destroyForcibly();
      side.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /**
   * A "postmaster" that forks while it is moved: a perl process with 64 MB of its own (so that a
   * fork, which copies its page tables, lasts a millisecond or more) that says "f" and forks, every
   * 50 ms, a child that lives 200 ms; each "f" starts a move, which so falls inside the fork. The
   * fork copied the parent's old set before the move and its child shows in no listing until the
   * fork ends (6 of 257 samples of a plain user's duet had a server's tree split so, docs/log.md).
   * Once the parent sleeps again, every child is on the set moved to. Moving the parent, then
   * listing its children once, left 37 to 40 of 40 moves with a child on the other set.
   */
  @Test
  void aServerForkingWhileItIsMovedEndsEachMoveWhole() throws Exception {
    assumeTrue(ThreadAffinity.unavailable().isEmpty(), ThreadAffinity.unavailable().orElse(""));
    assumeTrue(Files.isExecutable(Path.of("/usr/bin/perl")), "no perl");
    CpuList mine = CpuList.allowedForThisProcess().orElseThrow();
    assumeTrue(mine.size() >= 2, "one CPU");
    List<CpuList> halves = mine.split(mine.size() / 2);
    Process side = new ProcessBuilder("sleep", "60").start();
    Process server = new ProcessBuilder("/usr/bin/perl", "-MPOSIX", "-e", "$| = 1; $m = 'x' x (64 << 20); "
        + "while (1) { print \"f\\n\"; my $p = fork(); if (defined $p && $p == 0) { select(undef, undef, undef, 0.2); "
        + "POSIX::_exit(0); } select(undef, undef, undef, 0.05); 1 while waitpid(-1, WNOHANG) > 0; }")
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    try (var forks = new java.io.BufferedReader(new java.io.InputStreamReader(server.getInputStream(),
        StandardCharsets.US_ASCII))) {
      AffinityMover mover = new AffinityMover(side.pid(), () -> List.of(server.pid()));
      List<String> split = new ArrayList<>();
      int moves = 20;
      for (int i = 0; i < moves; i++) {
        assertThat(forks.readLine()).as("the server forks").isEqualTo("f");
        int move = i;
        CpuList to = halves.get(i % 2);
        mover.moveTo(to);
        // Not the 20 ms a duet allows, which a fork of 64 MB outlasted at load 26: the listings are what is tested.
        AffinityMover.settle(List.of(mover), TimeUnit.SECONDS.toNanos(5));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!AffinityMover.Quiet.of(server.pid()).orElseThrow().asleep() && System.nanoTime() < deadline) {
          Thread.sleep(1); // the fork has ended: its child shows
        }
        for (long child : tree(server.pid())) {
          for (long tid : AffinityMover.tasks(child)) {
            readSet(child, tid).filter(set -> !set.equals(to))
                .ifPresent(set -> split.add("move " + move + " to " + to + ": " + child + " on " + set));
          }
        }
      }
      assertThat(split).as("children on the other set after %d moves", moves).isEmpty();
      assertThat(mover.unsettled()).as("moves that left a tree listed while its parent ran").isZero();
    } finally {
      side.destroyForcibly();
      server.destroyForcibly();
      server.waitFor(10, TimeUnit.SECONDS);
      side.waitFor(10, TimeUnit.SECONDS);
    }
  }

  /** A process and every process under it, by /proc's children files. */
  private static List<Long> tree(long pid) throws IOException {
    List<Long> all = new ArrayList<>(List.of(pid));
    for (long tid : AffinityMover.tasks(pid)) {
      Path children = Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "children");
      String text;
      try {
        text = Files.readString(children, StandardCharsets.US_ASCII).strip();
      } catch (IOException ended) { // NoSuchFileException, or ESRCH while it exits
        continue;
      }
      for (String child : text.isEmpty() ? new String[0] : text.split(" +")) {
        all.addAll(tree(Long.parseLong(child)));
      }
    }
    return all;
  }

  private static int children(long pid) throws IOException {
    return tree(pid).size() - 1;
  }

  /** A task's CPU set; empty once it has ended (a zombie too, which its parent has not reaped yet). */
  private static Optional<CpuList> readSet(long pid, long tid) throws IOException {
    List<String> lines;
    try {
      lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "status"),
          StandardCharsets.UTF_8);
    } catch (IOException ended) { // NoSuchFileException, or ESRCH while it exits
      return Optional.empty();
    }
    for (String line : lines) {
      if (line.startsWith("State:") && line.substring("State:".length()).strip().matches("[ZX].*")) {
        return Optional.empty(); // it has ended, runs nowhere
      }
      if (line.startsWith("Cpus_allowed_list:")) {
        return Optional.of(CpuList.parse(line.substring(line.indexOf(':') + 1).strip()));
      }
    }
    return Optional.empty();
  }
}
