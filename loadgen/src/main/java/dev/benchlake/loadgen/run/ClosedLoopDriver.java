package dev.benchlake.loadgen.run;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Closed loop: {@code clients} connections, each running its next task as soon as the previous
 * one ends. A task's intended start is the moment its client became free (after any reconnect
 * backoff), so its latency is its service time plus loadgen's own overhead; the server's
 * throughput at this concurrency is what a closed loop measures. A one-pass step
 * ({@link StepPlan#onePass()}) gives each client its fixed number of tasks instead of a time or a
 * shared count.
 */
public final class ClosedLoopDriver implements Driver {
  private final int clients;
  private final HandicapStretch stretch;

  public ClosedLoopDriver(int clients) {
    this(clients, HandicapStretch.NONE);
  }

  /** @param stretch a known handicap on every task ({@code --handicap-stretch}; {@link HandicapStretch#NONE}: none) */
  public ClosedLoopDriver(int clients, HandicapStretch stretch) {
    this.clients = clients;
    this.stretch = stretch;
  }

  @Override
  public int startParties() {
    return clients;
  }

  @Override
  public void run(StepRun run) throws InterruptedException {
    AtomicLong measuredClaimed = new AtomicLong();
    Driver.runWorkers("client", clients, clientId -> {
      SplittableRandom random = run.random(clientId, 0);
      try (ClientSession session = new ClientSession(run, clientId, clients, stretch)) {
        if (!session.setUpAndAwaitStart()) {
          return;
        }
        long seq = 0;
        while (!run.control.stopRequested()) {
          session.awaitBackoff();
          long intended = run.clock.now();
          boolean warmup = intended < run.warmupEndNs();
          if (!warmup) {
            boolean done = run.plan.onePass() ? seq >= run.plan.tasksPerClient()
                : run.plan.timed() ? intended >= run.endNs() : measuredClaimed.getAndIncrement() >= run.plan.tasks();
            if (done) {
              break;
            }
          }
          session.execute(run.step.pickTask(random), intended, warmup, seq++, random);
        }
      }
    });
  }
}
