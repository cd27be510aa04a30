package dev.benchlake.loadgen.db;

import java.io.IOException;
import java.time.Duration;

/** Fault drills on an embedded server, for tests only. */
public final class ServerCrashes {
  private ServerCrashes() {}

  /**
   * Crashes the server ({@code pg_ctl stop -m immediate}: no checkpoint, every backend killed),
   * leaves it down for {@code downtime}, then starts it again with the same options and waits
   * until it accepts connections (after crash recovery). Linux only.
   */
  public static void crashAndRestart(EmbeddedServer server, Duration downtime) throws IOException, InterruptedException {
    PgCtl pgCtl = server.pgCtl();
    pgCtl.run("stop", "-m", "immediate", "-w");
    Thread.sleep(downtime.toMillis());
    // restart on a stopped server starts it with the options recorded in postmaster.opts.
    pgCtl.run("restart", "-w", "-t", "120");
  }
}
