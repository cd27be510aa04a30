package dev.benchlake.loadgen.run;

/** Applies load for one step and returns when the step's plan is done or the run is stopped. */
public interface Driver {
  void run(StepRun run) throws InterruptedException;

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
