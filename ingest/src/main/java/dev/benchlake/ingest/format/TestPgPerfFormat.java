package dev.benchlake.ingest.format;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import dev.benchlake.ingest.parse.MetadataOnly;
import dev.benchlake.ingest.source.Bom;
import java.io.IOException;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.benchlake.warehouse.fs.Storage;
import org.apache.hadoop.fs.Path;

/**
 * The TestPostgresqlPerf client's results: each {@code details.<app-guid>.txt} is one run; its
 * {@code summary.<app-guid>.txt} beside it (read whether or not it was named) supplies the error
 * messages of the failed tasks, and its counters must agree with the details. See
 * {@link TestPgPerfDetailsParser} for how durations and times are stored.
 */
public final class TestPgPerfFormat implements SourceFormat {
  /** The step of every task unless {@code --step} says otherwise: the client's one task. */
  public static final String DEFAULT_STEP = "select-update";
  /** The label that gives the day of the run (the files have times of day only). */
  public static final String DATE_LABEL = "date";
  private static final Pattern NAME = Pattern.compile("(details|summary)\\.(" + TestPgPerfDetailsParser.GUID.pattern() + ")\\.txt");

  @Override
  public String name() {
    return "testpgperf";
  }

  @Override
  public Optional<String> sniff(Probe probe) {
    List<String> head = probe.nonBlank(3);
    if (!head.isEmpty() && head.stream().allMatch(l -> TestPgPerfDetailsParser.LINE.matcher(l).matches())) {
      return Optional.of("TestPostgresqlPerf details lines: GUID, running tasks, ticks, HH:MM:SS");
    }
    if (head.size() >= 2 && TestPgPerfDetailsParser.GUID.matcher(head.get(0).trim()).matches()
        && head.get(1).startsWith("Rung\tFinshd")) {
      return Optional.of("a TestPostgresqlPerf summary");
    }
    return Optional.empty();
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    Set<Path> details = new LinkedHashSet<>();
    for (Path path : paths) {
      Matcher m = NAME.matcher(path.getName());
      if (m.matches() && m.group(1).equals("summary")) {
        Path companion = new Path(path.getParent(), "details." + m.group(2) + ".txt");
        if (!context.storage().isFile(companion)) {
          throw new BadInputException(path + ": a TestPostgresqlPerf summary is read with its details file, and "
              + companion.getName() + " is not beside it");
        }
        details.add(companion);
      } else {
        details.add(path);
      }
    }
    Long day = day(context);
    String step = context.step() != null ? context.step() : DEFAULT_STEP;
    List<SourcePlan> plans = new ArrayList<>();
    for (Path file : details) {
      plans.add(planRun(file, step, day, context.storage()));
    }
    return plans;
  }

  private SourcePlan planRun(Path detailsFile, String step, Long day, Storage storage) throws IOException {
    Matcher m = NAME.matcher(detailsFile.getName());
    String applicationId = m.matches() ? m.group(2) : null;
    Path summaryFile = applicationId == null ? null : new Path(detailsFile.getParent(), "summary." + applicationId + ".txt");
    TestPgPerfSummary summary = null;
    if (summaryFile != null && storage.isFile(summaryFile)) {
      try {
        summary = TestPgPerfSummary.parse(
            // Decoded as the engine decodes every file: bytes that are not UTF-8 become U+FFFD, not a crash.
            Bom.strip(storage.readString(summaryFile)).lines().toList());
      } catch (IllegalArgumentException e) {
        throw new BadInputException(summaryFile + ": not a TestPostgresqlPerf summary: " + e.getMessage());
      }
      if (!summary.applicationId().equalsIgnoreCase(applicationId)) {
        throw new BadInputException(summaryFile + ": names application " + summary.applicationId()
            + ", not " + applicationId + " of its file name");
      }
    }
    Map<String, Object> metadata = new LinkedHashMap<>();
    if (applicationId != null) {
      metadata.put("application_id", applicationId);
    }
    metadata.put("end_ts_date", day == null ? "unknown: end_ts is on 1970-01-01; give --label date=YYYY-MM-DD"
        : LocalDate.ofEpochDay(day).toString());
    metadata.put("end_ts_time_zone", "unknown: the client's wall clock, stored as UTC");
    List<PlannedFile> files = new ArrayList<>();
    files.add(PlannedFile.document(detailsFile,
        new TestPgPerfDetailsParser(step, applicationId, day, summary == null ? List.of() : summary.messages())));
    if (summary != null) {
      files.add(PlannedFile.document(summaryFile, new MetadataOnly()));
      Map<String, Object> counters = new LinkedHashMap<>();
      counters.put("running", summary.running());
      counters.put("finished", summary.finished());
      counters.put("total", summary.total());
      counters.put("timeout", summary.timeouts());
      counters.put("error", summary.errors());
      counters.put("ex_client", summary.clientExceptions());
      counters.put("minimum_duration", summary.minDuration());
      counters.put("maximum_duration", summary.maxDuration());
      counters.put("average_duration", summary.averageDuration());
      metadata.put("summary", counters);
    }
    SourcePlan plan = SourcePlan.of(name(), files, RunInfo.complete(metadata));
    TestPgPerfSummary finalSummary = summary;
    return plan.withCheck(stats -> {
      if (finalSummary == null) {
        return;
      }
      if (stats.failedTasks() != finalSummary.failures() || finalSummary.messages().size() != finalSummary.failures()
          || stats.tasks() != finalSummary.total()) {
        throw new BadInputException(detailsFile + " and " + summaryFile.getName() + " disagree: the details have "
            + stats.tasks() + " tasks of which " + stats.failedTasks() + " failed (-1); the summary counts Total "
            + finalSummary.total() + ", Timeout+Error+ExClient " + finalSummary.failures() + " and lists "
            + finalSummary.messages().size() + " error messages");
      }
    });
  }

  private static Long day(PlanContext context) {
    String date = context.labels().get(DATE_LABEL);
    if (date == null) {
      return null;
    }
    try {
      return LocalDate.parse(date).toEpochDay();
    } catch (DateTimeParseException e) {
      throw new BadInputException("--label " + DATE_LABEL + "=" + date + ": not a date (YYYY-MM-DD)");
    }
  }
}
