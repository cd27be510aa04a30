package dev.benchlake.loadgen;

import dev.benchlake.core.raw.StatementPlan;
import dev.benchlake.loadgen.db.Database;
import dev.benchlake.loadgen.db.PlanExplainer;
import dev.benchlake.loadgen.db.RecordingConnection;
import dev.benchlake.loadgen.db.SqlErrors;
import dev.benchlake.loadgen.workload.Step;
import dev.benchlake.loadgen.workload.TaskRunner;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plans of each step's statements ({@code step_plans} in the manifest), explained once per run
 * after the step's measured window: the step's tasks run on a {@link RecordingConnection} (nothing
 * reaches the server) to give its statement shapes and the constants its clients bind, then each
 * shape is explained as the step's executions were planned ({@link PlanExplainer}), on the tables
 * as the step left them, on a connection of its own. Nothing here fails the run: a statement that
 * cannot be explained, or a server that cannot be reached, is recorded with its reason.
 */
final class StepPlanRecorder {
  private static final Logger LOG = LoggerFactory.getLogger(StepPlanRecorder.class);
  /** Tasks run at most on the recording connection: a mix's rarest script gets its executions well before. */
  private static final int MAX_TASKS = 600;

  private final Database database;
  private final int major;
  private final long seed;
  private final int clients;
  private final List<StatementPlan> plans = new ArrayList<>();

  StepPlanRecorder(Database database, int major, long seed, int clients) {
    this.database = database;
    this.major = major;
    this.seed = seed;
    this.clients = clients;
  }

  /** Explains {@code step}'s statements; every plan recorded so far, this step's last. */
  List<StatementPlan> explain(Step step) {
    long started = System.nanoTime();
    List<String> names = step.taskNames();
    List<RecordingConnection> recorded = new ArrayList<>();
    String failed = null;
    try {
      for (int i = 0; i < names.size(); i++) {
        recorded.add(new RecordingConnection());
      }
      record(step, recorded);
    } catch (SQLException | RuntimeException e) {
      failed = "its statements could not be recorded: " + database.target().scrub(SqlErrors.message(e));
    }
    if (failed != null) {
      for (String name : names) {
        plans.add(new StatementPlan(name, null, null, null, null, failed));
      }
      LOG.warn("no plans recorded for step {}: {}", step.name(), failed);
      return List.copyOf(plans);
    }
    try (Connection c = database.connect()) {
      PlanExplainer explainer = new PlanExplainer(c, major);
      for (int t = 0; t < names.size(); t++) {
        for (RecordingConnection.Shape shape : recorded.get(t).shapes()) {
          if (PlanExplainer.explainable(shape.sql())) {
            plans.add(explainer.explain(names.get(t), shape, database.target()::scrub));
          }
        }
      }
    } catch (SQLException e) {
      String why = "cannot connect to explain it: " + database.target().scrub(SqlErrors.message(e));
      names.forEach(name -> plans.add(new StatementPlan(name, null, null, null, null, why)));
    }
    LOG.info("explained step {}'s statements in {} ms", step.name(), (System.nanoTime() - started) / 1_000_000);
    return List.copyOf(plans);
  }

  /**
   * Runs the step's tasks as its first client would (same seed, same key slice), each task name's on a
   * connection of its own, until every statement has its executions or {@link #MAX_TASKS} ran.
   */
  private void record(Step step, List<RecordingConnection> byTask) throws SQLException {
    List<TaskRunner> runners = new ArrayList<>();
    try {
      for (RecordingConnection c : byTask) {
        runners.add(step.open(c.connection(), 0, clients));
      }
      SplittableRandom random = new SplittableRandom(seed);
      for (int n = 0; n < MAX_TASKS && !byTask.stream().allMatch(RecordingConnection::enough); n++) {
        int task = step.pickTask(random);
        runners.get(task).run(task, random);
      }
    } finally {
      runners.forEach(TaskRunner::close);
    }
  }
}
