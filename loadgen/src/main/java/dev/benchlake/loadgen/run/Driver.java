package dev.benchlake.loadgen.run;

/** Applies load for one step and returns when the step's plan is done or the run is stopped. */
public interface Driver {
  /**
   * Applies the step's load. A gated step's threads set up first (connect, prepare, fill a pool)
   * and then call {@link StepRun#awaitStart()}; {@link #startParties()} of them do.
   */
  void run(StepRun run) throws InterruptedException;

  /** How many of this driver's threads wait at a gated step's start. */
  int startParties();

  /** Starts {@code n} worker threads running {@code body(i)} and waits for all of them. */
  static void runWorkers(String name, int n, java.util.function.IntConsumer body) throws InterruptedException {
    Thread[] threads = new Thread[n];
    for (int i = 0; i < n; i++) {
      int id = i;
      threads[i] = new Thread(() -> body.accept(id), name + "-" + i);
      threads[i].start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }
}
