package dev.benchlake.ingest.format;

import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.Path;

/**
 * pgbench {@code -l} per-transaction logs; the per-thread files of one pgbench run are one run
 * (see {@link PgbenchLogParser} for the fields).
 *
 * <p>A seven-field line carries either schedule_lag ({@code --rate}) or retries
 * ({@code --max-tries}, PostgreSQL 15+); the line cannot tell. From the head of the run's first
 * file: a {@code skipped} transaction or a 7th value above 1000 means schedule_lag (skipping needs
 * {@code --rate}; a thousand retries of one transaction is implausible); else a failed
 * transaction means retries; else schedule_lag (its meaning before PostgreSQL 15). The choice is
 * said on stderr and kept in the run's facts.
 */
public final class PgbenchLogFormat implements SourceFormat {
  public static final String DEFAULT_STEP = "pgbench";
  private static final Pattern LINE = Pattern.compile(
      "\\d+ \\d+ (\\d+|skipped|failed|serialization|deadlock) \\d+ \\d{9,} \\d+( \\d+){0,2}");

  @Override
  public String name() {
    return "pgbench-log";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    List<String> head = probe.nonBlank(5);
    if (!head.isEmpty() && head.stream().allMatch(l -> LINE.matcher(l.trim()).matches())) {
      return Optional.of("pgbench -l lines: client_id transaction_no time script_no time_epoch time_us");
    }
    return Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    String step = context.step() != null ? context.step() : DEFAULT_STEP;
    List<SourcePlan> plans = new ArrayList<>();
    for (List<Path> run : PgbenchLogFiles.groupByRun(paths)) {
      boolean seventhIsLag = seventhIsLag(Heads.read(run.get(0), context.storage()));
      PgbenchLogParser parser = new PgbenchLogParser(step, seventhIsLag);
      List<PlannedFile> files = run.stream().map(p -> PlannedFile.lines(p, parser)).toList();
      Map<String, Object> metadata = new LinkedHashMap<>();
      metadata.put("threads_files", run.size());
      metadata.put("seventh_field", seventhIsLag ? "schedule_lag" : "retries");
      if (hasSevenFields(Heads.read(run.get(0), context.storage()))) {
        context.messages().accept(run.get(0) + ": 7-field lines: reading the 7th field as "
            + (seventhIsLag ? "schedule_lag (--rate)" : "retries (--max-tries)"));
      }
      plans.add(SourcePlan.of(name(), files,
          new RunInfo("complete", null, null, Map.of(), Workloads.of(Workloads.PGBENCH), metadata)));
    }
    return plans;
  }

  static boolean hasSevenFields(List<String> head) {
    return head.stream().anyMatch(l -> PgbenchLogFiles.fields(l).length == 7);
  }

  /** Whether the 7th field of seven-field lines is schedule_lag (else retries); see the class doc. */
  static boolean seventhIsLag(List<String> head) {
    boolean failures = false;
    for (String line : head) {
      String[] f = PgbenchLogFiles.fields(line);
      if (f.length < 6) {
        continue;
      }
      if (f[2].equals("skipped")) {
        return true;
      }
      if (f.length == 7 && PgbenchLogFiles.isInteger(f[6]) && Long.parseLong(f[6]) > 1000) {
        return true;
      }
      failures |= f[2].equals("failed") || f[2].equals("serialization") || f[2].equals("deadlock");
    }
    return !failures;
  }
}
