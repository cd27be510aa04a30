package dev.benchlake.core.raw;

/**
 * The plan one statement shape of a step ran with ({@code step_plans} in the manifest), explained
 * once per run after the step's measured window, on its tables, the way its tasks ran it: a
 * prepared statement, executed as often as the server's plan cache needs to choose between a
 * generic and a custom plan (PostgreSQL decides at the sixth execution), then {@code EXPLAIN
 * EXECUTE}. It holds the statement's text and the constants of one task, never a URL or a password.
 *
 * @param step the task name its tasks are recorded under (the {@code step} of tasks.csv)
 * @param statement the statement as the workload prepares it ({@code ?} for its parameters)
 * @param plan {@code EXPLAIN}'s text, one line per node; absent when it could not be explained
 * @param planHash a hash of the plan's nodes, conditions and settings without its costs, row
 *     estimates or constants (so generic and custom plans of one shape hash alike), absent with the plan
 * @param planCache {@code generic} or {@code custom}: which plan the server's cache gave the step's
 *     executions; absent when the server does not say (before 14, for a plan that shows no parameter)
 * @param error why it could not be explained (e.g. the server's message), absent when it was
 */
public record StatementPlan(String step, String statement, String plan, String planHash, String planCache,
    String error) {
  public static final String GENERIC = "generic";
  public static final String CUSTOM = "custom";
}
