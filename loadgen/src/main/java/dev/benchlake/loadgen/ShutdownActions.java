package dev.benchlake.loadgen;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What must happen when the JVM is asked to stop (Ctrl-C, SIGTERM) while a run is going: first
 * finish the run (stop the workers, flush tasks.csv, mark the manifest interrupted), then stop the
 * embedded server it used. JVM shutdown hooks run concurrently and in no order, so loadgen
 * registers one hook that runs these actions in reverse order of registration.
 */
final class ShutdownActions {
  private static final Logger LOG = LoggerFactory.getLogger(ShutdownActions.class);
  private static final Deque<Action> ACTIONS = new ArrayDeque<>();
  private static boolean hookInstalled;
  private static boolean shuttingDown;

  private ShutdownActions() {}

  /** A registered action; {@link #close()} unregisters it (a no-op once the JVM is shutting down). */
  static final class Action implements AutoCloseable {
    private final String name;
    private final Runnable body;

    private Action(String name, Runnable body) {
      this.name = name;
      this.body = body;
    }

    @Override
    public void close() {
      synchronized (ShutdownActions.class) {
        if (!shuttingDown) {
          ACTIONS.remove(this);
        }
      }
    }
  }

  static synchronized Action register(String name, Runnable body) {
    if (!hookInstalled) {
      Runtime.getRuntime().addShutdownHook(new Thread(ShutdownActions::runAll, "loadgen-shutdown"));
      hookInstalled = true;
    }
    Action action = new Action(name, body);
    ACTIONS.push(action);
    return action;
  }

  private static void runAll() {
    List<Action> toRun;
    synchronized (ShutdownActions.class) {
      shuttingDown = true;
      toRun = new ArrayList<>(ACTIONS);
    }
    for (Action action : toRun) {
      try {
        action.body.run();
      } catch (RuntimeException | LinkageError e) {
        // One line, never a hook thread's uncaught stack trace: the JVM is ending on a signal.
        LOG.warn("on shutdown, {} failed: {}", action.name, e.getMessage());
      }
    }
  }
}
