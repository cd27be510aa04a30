package dev.benchlake.ingest.format;

import dev.benchlake.ingest.parse.DocumentParser;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.warehouse.RejectType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A mytools {@code sb.o.*} file: run.sh writes the sysbench command it runs (line 1) and
 * {@code "<n> CPUs"} (line 2) before sysbench's own output, which {@link SysbenchParser} reads.
 *
 * <p>The command line carries the database credentials ({@code --pgsql-password=…}): it is metadata,
 * never rejected (a reject keeps its raw text), and only the options below become facts
 * ({@code option.<name>}, plus {@code option.script}, the Lua script's file name).
 *
 * <p>In a folder's run every output is a step with facts of its own ({@code option.threads} differs
 * between a step's dops): there, each fact's key starts with the step's name and a slash
 * ({@code point-query_range=100/option.threads}), so that no step's fact overwrites another's.
 */
final class MytoolsOutputParser implements DocumentParser {
  private static final long serialVersionUID = 1L;

  private static final Pattern CPUS = Pattern.compile("(\\d+) CPUs");
  private static final Pattern BANNER = Pattern.compile("sysbench \\d+\\.\\d+.*");
  private static final Pattern OPTION = Pattern.compile("--([a-z][a-z-]*)=(\\S*)");
  /** The options worth keeping: what was measured, never who connected how. */
  private static final Set<String> KEPT = Set.of("db-driver", "range-size", "table-size", "tables", "threads", "events",
      "warmup-time", "time", "rand-type", "random-points", "hot-points", "skip-trx", "on-id", "covered", "db-ps-mode",
      "update-rate");

  private final SysbenchParser sysbench;
  private final String factPrefix;

  /** A parser whose facts have their plain keys (the driver's read of one output). */
  MytoolsOutputParser(String step) {
    this(step, "");
  }

  private MytoolsOutputParser(String step, String factPrefix) {
    this.sysbench = new SysbenchParser(step);
    this.factPrefix = factPrefix;
  }

  /** A parser of one step of a folder's run: its facts' keys are {@code <step>/<key>}. */
  static MytoolsOutputParser stepOfRun(String step) {
    return new MytoolsOutputParser(step, step + "/");
  }

  @Override
  public void parse(List<String> lines, ParseSink given) {
    ParseSink sink = new Shifted(given, 0, factPrefix);
    int skip = 0;
    if (skip < lines.size() && isCommand(lines.get(skip))) {
      commandFacts(lines.get(skip)).forEach((k, v) -> sink.fact("", k, v));
      sink.metadata(++skip);
    }
    Matcher cpus;
    if (skip < lines.size() && (cpus = CPUS.matcher(lines.get(skip).trim())).matches()) {
      sink.fact("", "cpus", cpus.group(1));
      sink.metadata(++skip);
    }
    sysbench.parse(lines.subList(skip, lines.size()), new Shifted(given, skip, factPrefix));
  }

  /**
   * Whether line 1 is run.sh's echoed command: it always is, unless the file starts with sysbench's
   * own banner (an output saved without run.sh). Never a reject: it may hold a password.
   */
  static boolean isCommand(String line) {
    String t = line.trim();
    return !t.isEmpty() && !BANNER.matcher(t).matches();
  }

  /** The kept options of a command line, and its script's file name. */
  static Map<String, String> commandFacts(String line) {
    Map<String, String> facts = new LinkedHashMap<>();
    for (String word : line.trim().split("\\s+")) {
      Matcher m = OPTION.matcher(word);
      if (m.matches() && KEPT.contains(m.group(1))) {
        facts.put("option." + m.group(1), m.group(2));
      } else if (word.endsWith(".lua")) {
        facts.put("option.script", word.substring(word.lastIndexOf('/') + 1));
      }
    }
    return facts;
  }

  /**
   * Gives the lines after the first {@code offset} their numbers in the whole file, and the facts
   * their prefix.
   */
  private record Shifted(ParseSink sink, long offset, String factPrefix) implements ParseSink {
    @Override
    public void task(long lineNo, ParsedTask task) {
      sink.task(lineNo + offset, task);
    }

    @Override
    public void metric(long lineNo, ParsedMetric metric) {
      sink.metric(lineNo + offset, metric);
    }

    @Override
    public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
      sink.reject(lineNo + offset, rawLine, type, column, reason);
    }

    @Override
    public void metadata(long lineNo) {
      sink.metadata(lineNo + offset);
    }

    @Override
    public void fact(String runPart, String key, String value) {
      sink.fact(runPart, factPrefix + key, value);
    }
  }
}
