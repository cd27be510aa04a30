package dev.benchlake.ingest.format;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * One point of the {@link CsvMapping} space with valid data: the mapping, the rows it describes as
 * values (not text), the file rendered from them, and the tasks or metrics a reader must find,
 * computed from the values by this class's own small reference reader (never by our parser).
 *
 * <p>Tasks layout: every optional column (run, step, timestamp, ok, error, client) present or
 * absent, in any order, with an unmapped column among them; header or numbered columns; every
 * timestamp format (ISO-8601 with {@code Z}, an offset, local with {@code T} or a space, and
 * {@code epoch_s|ms|us}) read as the start or the end; every latency unit; four delimiters,
 * quoting where a value needs it (and sometimes where it does not), blank lines, CRLF. Wide
 * layout: a step column and value columns, named or by default, empty cells, {@code %} values.
 *
 * @param timestamp how its timestamps are written (one of {@link #TIMESTAMPS}; "none" without a
 *     timestamp column, and in a wide table)
 */
record CsvMappingCase(
    boolean wide,
    String timestamp,
    Map<String, Object> mapping,
    boolean yaml,
    List<String> lines,
    boolean crlf,
    List<String> expected) {

  boolean header() {
    return !Boolean.FALSE.equals(mapping.get("header"));
  }

  /** What a reader must find: one line per task or metric, in file order (see {@link #task} and {@link #metric}). */
  @Override
  public String toString() {
    return (wide ? "wide " : "tasks ") + mapping + (yaml ? " (yaml)" : "") + (crlf ? " crlf" : "") + "\n"
        + String.join("\n", lines);
  }

  /** Writes the data file and the mapping into {@code dir}; returns {data, mapping}. */
  Path[] write(Path dir, String name) {
    try {
      Files.createDirectories(dir);
      Path data = dir.resolve(name + ".csv");
      Files.writeString(data, String.join(crlf ? "\r\n" : "\n", lines) + (crlf ? "\r\n" : "\n"), StandardCharsets.UTF_8);
      ObjectMapper mapper = yaml ? new YAMLMapper() : new JsonMapper();
      Path mappingFile = dir.resolve(name + (yaml ? ".yaml" : ".json"));
      Files.write(mappingFile, mapper.writeValueAsBytes(mapping));
      return new Path[] {data, mappingFile};
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** One expected task, as {@link CsvMappingProperties} renders what a reader found (no error: null, as stored). */
  static String task(String run, String step, int client, long seq, Long startUs, Long endUs, long latencyNs,
      boolean ok, String error) {
    return "task run=" + run + " step=" + step + " client=" + client + " seq=" + seq + " start=" + startUs + " end="
        + endUs + " latency_ns=" + latencyNs + " ok=" + ok + " error=" + error;
  }

  /** One expected whole-run metric of a wide table. */
  static String metric(String run, String step, String metric, double value, String unit) {
    return "metric run=" + run + " step=" + step + " " + metric + "=" + value + " " + unit;
  }

  // --- the generators

  private static final List<Character> DELIMITERS = List.of(',', ';', '\t', '|');
  static final List<String> TIMESTAMPS = List.of("none", "iso-z", "iso-offset", "iso-local-t", "iso-local-space",
      "iso-offset-space", "epoch_s", "epoch_ms", "epoch_us");
  private static final List<String> UNITS = List.of("ns", "us", "µs", "ms", "s");
  // Values a delimited file may hold: delimiters and quotes inside are quoted.
  private static final List<String> RUNS = List.of("a", "run 2", "r;3", "r,4", "\"q\"5");
  private static final List<String> STEPS = List.of("point-select", "q1", "select \"x\"", "a,b", "x;y", "tab|bar");
  private static final List<String> ERRORS = List.of("", "", "timeout", "deadlock; retried", "said \"no\"", "a,b|c");
  private static final List<String> TRUE = List.of("true", "t", "1", "yes", "y", "ok", "success", "TRUE", "Yes");
  private static final List<String> FALSE = List.of("false", "f", "0", "no", "n", "error", "failed", "failure", "False");

  /** Every case of both layouts. */
  static Arbitrary<CsvMappingCase> any() {
    return Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(3, tasksLayout()),
        net.jqwik.api.Tuple.of(1, wideLayout()));
  }

  /** The shape of a tasks-layout case; its rows are drawn from the seed. */
  record TasksShape(boolean header, char delimiter, boolean run, boolean step, String timestamp, boolean timestampIsEnd,
      boolean ok, boolean error, boolean client, boolean extra, String unit, int fractionDigits, boolean yaml,
      boolean crlf, int rows, long seed) {}

  static Arbitrary<CsvMappingCase> tasksLayout() {
    Arbitrary<Boolean> b = Arbitraries.of(true, false);
    return Combinators.combine(
        Combinators.combine(b, Arbitraries.of(DELIMITERS), b, b, Arbitraries.of(TIMESTAMPS), b, b, b).as(List::<Object>of),
        Combinators.combine(b, b, Arbitraries.of(UNITS), Arbitraries.of(0, 3, 6), b, b, Arbitraries.integers().between(1, 12),
            Arbitraries.longs()).as(List::<Object>of))
        .as((x, y) -> tasks(new TasksShape((Boolean) x.get(0), (Character) x.get(1), (Boolean) x.get(2),
            (Boolean) x.get(3), (String) x.get(4), (Boolean) x.get(5), (Boolean) x.get(6), (Boolean) x.get(7),
            (Boolean) y.get(0), (Boolean) y.get(1), (String) y.get(2), (Integer) y.get(3), (Boolean) y.get(4),
            (Boolean) y.get(5), (Integer) y.get(6), (Long) y.get(7))));
  }

  /** A tasks-layout case of the given shape. */
  static CsvMappingCase tasks(TasksShape s) {
    java.util.Random random = new java.util.Random(s.seed());
    // The columns in a random order: role → header name.
    List<String> roles = new ArrayList<>(List.of("latency"));
    if (s.run()) {
      roles.add("run");
    }
    if (s.step()) {
      roles.add("step");
    }
    if (!s.timestamp().equals("none")) {
      roles.add("timestamp");
    }
    if (s.ok()) {
      roles.add("ok");
    }
    if (s.error()) {
      roles.add("error");
    }
    if (s.client()) {
      roles.add("client");
    }
    if (s.extra()) {
      roles.add("note");
    }
    java.util.Collections.shuffle(roles, random);
    Map<String, String> names = Map.of("latency", "latency_" + s.unit(), "run", "run id", "step", "query",
        "timestamp", "ts", "ok", "success", "error", "message", "client", "thread", "note", "note");

    Map<String, Object> columns = new LinkedHashMap<>();
    for (String role : roles) {
      if (!role.equals("note")) {
        columns.put(role, s.header() ? names.get(role) : String.valueOf(roles.indexOf(role) + 1));
      }
    }
    Map<String, Object> mapping = new LinkedHashMap<>();
    mapping.put("layout", "tasks");
    mapping.put("delimiter", s.delimiter() == '\t' ? "\\t" : String.valueOf(s.delimiter()));
    mapping.put("header", s.header());
    mapping.put("columns", columns);
    mapping.put("latency_unit", s.unit());
    String format = s.timestamp().startsWith("iso") ? "iso" : s.timestamp();
    if (!s.timestamp().equals("none")) {
      mapping.put("timestamp_format", format);
      mapping.put("timestamp_is", s.timestampIsEnd() ? "end" : "start");
    }
    String constantStep = "step-" + s.unit();
    if (!s.step()) {
      mapping.put("step", constantStep);
    }

    List<String> lines = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    if (s.header()) {
      lines.add(String.join(String.valueOf(s.delimiter()), roles.stream().map(r -> field(names.get(r), s.delimiter(), random)).toList()));
    }
    for (int i = 0; i < s.rows(); i++) {
      if (random.nextInt(8) == 0) {
        lines.add(random.nextBoolean() ? "" : "  ");
      }
      String run = RUNS.get(random.nextInt(RUNS.size()));
      String step = STEPS.get(random.nextInt(STEPS.size()));
      long latencyNs = random.nextInt(4) == 0 ? random.nextInt(1000) : random.nextLong(1L, 1_000_000_000_000L);
      int digits = switch (s.unit()) {
        case "ns" -> 0;
        case "us", "µs" -> 3;
        case "ms" -> 6;
        default -> 9;
      };
      // The latency in the mapped unit, written exactly.
      String latency = BigDecimal.valueOf(latencyNs).movePointLeft(digits).stripTrailingZeros().toPlainString();
      // With an ok column, it says; without, a non-empty error means failed; with neither, every task is ok.
      boolean okValue = random.nextInt(4) != 0;
      String error = s.error() ? ERRORS.get(random.nextInt(ERRORS.size())) : "";
      boolean expectedOk = s.ok() ? okValue : error.isEmpty();
      int client = random.nextInt(5) == 0 ? -random.nextInt(100) : random.nextInt(1000);
      // Timestamps from 2001 to 2033, at the precision the format writes.
      long unitUs = (long) Math.pow(10, 6 - s.fractionDigits());
      long tsUs = random.nextLong(1_000_000_000L, 2_000_000_000L) * 1_000_000L / unitUs * unitUs
          + random.nextLong(1_000_000L) / unitUs * unitUs;
      Map<String, String> cells = new LinkedHashMap<>();
      cells.put("latency", latency);
      cells.put("run", run);
      cells.put("step", step);
      cells.put("timestamp", timestamp(s.timestamp(), tsUs, s.fractionDigits(), random));
      cells.put("ok", (okValue ? TRUE : FALSE).get(random.nextInt(TRUE.size())));
      cells.put("error", error);
      cells.put("client", random.nextBoolean() ? String.valueOf(client) : " " + client + " ");
      cells.put("note", "free, \"text\"");
      lines.add(String.join(String.valueOf(s.delimiter()), roles.stream().map(r -> field(cells.get(r), s.delimiter(), random)).toList()));
      long lineNo = lines.size();
      Long startUs = null;
      Long endUs = null;
      if (!s.timestamp().equals("none")) {
        startUs = s.timestampIsEnd() ? tsUs - latencyNs / 1000 : tsUs;
        endUs = s.timestampIsEnd() ? tsUs : tsUs + latencyNs / 1000;
      }
      expected.add(task(s.run() ? run : "", s.step() ? step : constantStep, s.client() ? client : 0, lineNo, startUs,
          endUs, latencyNs, expectedOk, error.isEmpty() ? null : error));
    }
    return new CsvMappingCase(false, s.timestamp(), mapping, s.yaml(), lines, s.crlf(), expected);
  }

  /** A timestamp of {@code us} microseconds since the epoch written as {@code kind} says. */
  private static String timestamp(String kind, long us, int fractionDigits, java.util.Random random) {
    Instant instant = Instant.ofEpochSecond(Math.floorDiv(us, 1_000_000L), Math.floorMod(us, 1_000_000L) * 1000L);
    String fraction = fractionDigits == 0 ? "" : "." + String.format(Locale.ROOT, "%06d", Math.floorMod(us, 1_000_000L))
        .substring(0, fractionDigits);
    DateTimeFormatter seconds = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT);
    return switch (kind) {
      case "none" -> "";
      case "iso-z" -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC).format(seconds) + fraction + "Z";
      case "iso-offset", "iso-offset-space" -> {
        ZoneOffset offset = ZoneOffset.ofTotalSeconds((random.nextInt(49) - 24) * 1800);
        String local = LocalDateTime.ofInstant(instant, offset).format(seconds) + fraction
            + (offset.getTotalSeconds() == 0 ? "+00:00" : offset.getId());
        yield kind.equals("iso-offset") ? local : local.replace('T', ' ');
      }
      case "iso-local-t" -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC).format(seconds) + fraction;
      case "iso-local-space" -> LocalDateTime.ofInstant(instant, ZoneOffset.UTC).format(seconds).replace('T', ' ') + fraction;
      case "epoch_s" -> BigDecimal.valueOf(us, 6).stripTrailingZeros().toPlainString();
      case "epoch_ms" -> BigDecimal.valueOf(us, 3).stripTrailingZeros().toPlainString();
      case "epoch_us" -> String.valueOf(us);
      default -> throw new IllegalArgumentException(kind);
    };
  }

  static Arbitrary<CsvMappingCase> wideLayout() {
    Arbitrary<Boolean> b = Arbitraries.of(true, false);
    return Combinators.combine(Arbitraries.of(DELIMITERS), b, b, b, b, Arbitraries.integers().between(1, 10),
        Arbitraries.longs()).as(CsvMappingCase::wide);
  }

  /** A wide table: one row per step, one column per run (some named by value_columns, some not). */
  static CsvMappingCase wide(char delimiter, boolean namedValueColumns, boolean unit, boolean yaml, boolean crlf, int rows,
      long seed) {
    java.util.Random random = new java.util.Random(seed);
    List<String> columns = new ArrayList<>(List.of("9.6", "10", "11", "pg 12", "v;13").subList(0, 1 + random.nextInt(5)));
    List<String> valueColumns = new ArrayList<>(columns);
    if (namedValueColumns) {
      columns.add("comment");
    }
    columns.add(random.nextInt(columns.size() + 1), "query");
    Map<String, Object> mapping = new LinkedHashMap<>();
    mapping.put("layout", "wide");
    mapping.put("delimiter", delimiter == '\t' ? "\\t" : String.valueOf(delimiter));
    mapping.put("columns", Map.of("step", "query"));
    if (namedValueColumns) {
      java.util.Collections.shuffle(valueColumns, random);
      mapping.put("value_columns", valueColumns);
    }
    mapping.put("metric", "relative_qps");
    if (unit) {
      mapping.put("unit", "ratio");
    }
    mapping.put("column_label", "db_version");
    List<String> lines = new ArrayList<>();
    List<String> expected = new ArrayList<>();
    lines.add(String.join(String.valueOf(delimiter), columns.stream().map(c -> field(c, delimiter, random)).toList()));
    for (int i = 0; i < rows; i++) {
      String step = STEPS.get(random.nextInt(STEPS.size()));
      Map<String, String> cells = new LinkedHashMap<>();
      cells.put("query", step);
      cells.put("comment", "n/a");
      Map<String, Double> values = new LinkedHashMap<>();
      String kept = valueColumns.get(random.nextInt(valueColumns.size()));
      for (String column : valueColumns) {
        if (!column.equals(kept) && random.nextInt(4) == 0) {
          cells.put(column, random.nextBoolean() ? "" : " ");
          continue;
        }
        BigDecimal value = BigDecimal.valueOf(random.nextInt(2_000_000) - 200_000, random.nextInt(5));
        values.put(column, value.doubleValue());
        cells.put(column, value.toPlainString() + (random.nextInt(4) == 0 ? "%" : ""));
      }
      lines.add(String.join(String.valueOf(delimiter), columns.stream().map(c -> field(cells.get(c), delimiter, random)).toList()));
      // The parser writes a row's metrics in the order of the value columns.
      for (String column : valueColumns) {
        if (values.containsKey(column)) {
          expected.add(metric(column, step, "relative_qps", values.get(column), unit ? "ratio" : ""));
        }
      }
    }
    return new CsvMappingCase(true, "none", mapping, yaml, lines, crlf, expected);
  }

  /** A field as RFC 4180 writes it: quoted when it holds the delimiter or a quote, and at random otherwise. */
  private static String field(String value, char delimiter, java.util.Random random) {
    boolean needs = value.indexOf(delimiter) >= 0 || value.indexOf('"') >= 0;
    return needs || random.nextInt(6) == 0 ? '"' + value.replace("\"", "\"\"") + '"' : value;
  }
}
