package dev.benchlake.loadgen.run;

import java.util.SplittableRandom;

/**
 * Open loop: tasks arrive on a schedule ({@link ArrivalSchedule}) whatever the server does, and
 * {@code clients} connections take them in order of arrival. Each task's latency is measured from
 * its scheduled start, so when the server (or loadgen) falls behind, the backlog shows up as
 * latency instead of silently thinning the load: no coordinated omission. Nothing queues in
 * memory: a free client claims the next arrival time and sleeps until it comes (or starts at once,
 * late, when it is already past).
 */
public final class OpenLoopDriver implements Driver {
  private final int clients;
  private final double ratePerSecond;
  private final ArrivalSchedule.Kind kind;

  public OpenLoopDriver(int clients, double ratePerSecond, ArrivalSchedule.Kind kind) {
    this.clients = clients;
    this.ratePerSecond = ratePerSecond;
    this.kind = kind;
  }

  @Override
  public int startParties() {
    return clients;
  }

  @Override
  public void run(StepRun run) throws InterruptedException {
    // Made once the step has started: the schedule begins at its start.
    java.util.concurrent.atomic.AtomicReference<Arrivals> shared = new java.util.concurrent.atomic.AtomicReference<>();
    Driver.runWorkers("client", clients, clientId -> {
      SplittableRandom random = run.random(clientId, 0);
      try (ClientSession session = new ClientSession(run, clientId, clients)) {
        if (!session.setUpAndAwaitStart()) {
          return;
        }
        Arrivals arrivals = shared.updateAndGet(a -> a != null ? a : new Arrivals(run, new ArrivalSchedule(kind,
            ratePerSecond, run.startNs(), run.random(Integer.MAX_VALUE, 0))));
        long seq = 0;
        long intended;
        while (!run.control.stopRequested() && (intended = arrivals.claim()) != Long.MIN_VALUE) {
          run.clock.sleepUntil(intended, run.control);
          session.awaitBackoff();
          if (run.control.stopRequested()) {
            break;
          }
          session.execute(run.step.pickTask(random), intended, intended < run.warmupEndNs(), seq++, random);
        }
      }
    });
  }

  /** Hands out arrival times in order; none past the plan. */
  private static final class Arrivals {
    private final StepRun run;
    private final ArrivalSchedule schedule;
    private long measured;

    Arrivals(StepRun run, ArrivalSchedule schedule) {
      this.run = run;
      this.schedule = schedule;
    }

    synchronized long claim() {
      long t = schedule.next();
      if (t < run.warmupEndNs()) {
        return t;
      }
      if (run.plan.timed() ? t >= run.endNs() : measured >= run.plan.tasks()) {
        return Long.MIN_VALUE;
      }
      measured++;
      return t;
    }
  }
}
