package dev.benchlake.loadgen.run;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a step's workers once they are set up (connected, statements prepared, a burst's pool
 * filled) until the step starts: a step behind a barrier starts on both sides of a duet at one
 * instant, and what each side takes to set up must not fall inside its window. The workers arrive
 * ({@link #arriveAndAwait}); the run waits until all have ({@link #awaitSetUp}), asks the barrier,
 * and opens the gate; each worker then sleeps until the start instant.
 */
final class StartGate {
  private final CountDownLatch setUp;
  private final CountDownLatch open = new CountDownLatch(1);

  /** @param parties how many threads arrive (a driver's {@link Driver#startParties()}) */
  StartGate(int parties) {
    this.setUp = new CountDownLatch(parties);
  }

  /** A worker is set up: waits for the gate, then until the step's start. */
  void arriveAndAwait(StepRun run) throws InterruptedException {
    setUp.countDown();
    open.await();
    run.clock.sleepUntil(run.startNs(), run.control);
  }

  /** Whether every worker arrived within {@code millis}. */
  boolean awaitSetUp(long millis) throws InterruptedException {
    return setUp.await(millis, TimeUnit.MILLISECONDS);
  }

  void open() {
    open.countDown();
  }
}
