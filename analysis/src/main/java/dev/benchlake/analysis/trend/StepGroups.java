package dev.benchlake.analysis.trend;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * Which group a step belongs to in a trend, decided by the first that applies of:
 * <ol>
 *   <li>the mapping file's {@code steps} (exact step names);
 *   <li>the mapping file's {@code rules} (regular expressions found anywhere in the name,
 *       case-insensitive), in order;
 *   <li>for the names of the mytools study ({@code <testType>[.pre|.warm|.post]_range=<R>[_dop=<T>]}, as
 *       mdcallag/mytools {@code bench/sysbench.lua} names its steps), the study's five groups:
 *       <ul>
 *         <li>{@value #POINT_1}: the point queries other than random-points: {@code point-query},
 *             {@code hot-points}, {@code points-covered-pk|si}, {@code points-notcovered-pk|si};
 *         <li>{@value #POINT_2}: {@code random-points} (an IN-list of R random keys), at every R;
 *         <li>{@value #RANGE_1}: range queries without aggregation: {@code range-covered-pk|si},
 *             {@code range-notcovered-pk|si}, {@code scan} and {@code full-scan}, and
 *             {@code read-only-simple} (sysbench's simple ranges only: {@code SELECT c … BETWEEN},
 *             nothing aggregated);
 *         <li>{@value #RANGE_2}: the read-only variants with aggregation: {@code read-only} at every
 *             range (sysbench's oltp_read_only transaction runs sum, order and distinct ranges
 *             besides its point selects, so its time is mostly aggregation and sorting at 10, 100 and
 *             10000 alike), {@code read-only-sum}, {@code read-only-count},
 *             {@code read-only-distinct} and {@code read-only-order} (a sort over the range: work
 *             done on every row after the scan, as an aggregate's; the study charts it with them);
 *         <li>{@value #WRITES}: {@code insert}, every {@code update-*}, {@code delete},
 *             {@code write-only} and {@code read-write} (a write transaction, whatever its reads);
 *       </ul>
 *       The sequence's warm-up ({@code .warm}: all_small.sh's first step, which loads the caches
 *       after the tables are built and is followed by a vacuum) is {@value #WARM_UP}, a group of its
 *       own, not one of the five: the study ran it to ready the server, not to measure it. A step
 *       measured before or after the writes ({@code .pre}, {@code .post}), and a step that ran at
 *       another dop than its run's ({@code point-query.pre_range=100_dop=2}, in the run of its
 *       folder), is in its test type's group. A mytools name of an unknown test type falls through
 *       to the rules below;
 *   <li>the built-in rules, over loadgen's, sysbench's and pgbench's step names: mixed
 *       transactions ({@code read-only}, {@code read-write}, {@code oltp_read_only} …) are
 *       {@value #OTHER}; names with {@code update}, {@code insert}, {@code delete}, {@code write},
 *       {@code upsert} or {@code tpcb} are {@value #WRITES}; names with {@code range} or
 *       {@code scan} are {@value #RANGE}; names with {@code point}, {@code select-only},
 *       {@code select_only} or {@code lookup} are {@value #POINT}; the rest is {@value #OTHER}.
 * </ol>
 * The mapping file (JSON, or YAML by its extension):
 * <pre>{@code
 * steps: {update-one: writes, scan_range: range query}
 * rules: [{match: "^get_", group: point query}]
 * }</pre>
 */
public final class StepGroups {
  public static final String POINT = "point query";
  public static final String RANGE = "range query";
  public static final String WRITES = "writes";
  public static final String OTHER = "other";
  public static final String POINT_1 = "point query, part 1";
  public static final String POINT_2 = "point query, part 2";
  public static final String RANGE_1 = "range query, part 1";
  public static final String RANGE_2 = "range query, part 2";
  public static final String WARM_UP = "warm-up";
  private static final List<String> BUILT_IN_ORDER = List.of(POINT, POINT_1, POINT_2, RANGE, RANGE_1, RANGE_2, WRITES,
      WARM_UP, OTHER);

  /**
   * A mytools step name: the test type, an optional warm suffix, the range, and the dop (and pk)
   * when they are not its run's (ingest's {@code point-query.pre_range=100_dop=2}).
   */
  private static final Pattern MYTOOLS = Pattern.compile(
      "^([a-z][a-z-]*)(?:\\.(pre|warm|post))?_range=\\d+(?:_dop=\\d+)?(?:_pk=[01])?$", Pattern.CASE_INSENSITIVE);

  /** The mytools test types by group (their names as run.sh spells them). */
  private static final Map<String, String> MYTOOLS_GROUPS = mytoolsGroups();

  private record Rule(Pattern pattern, String group) {}

  private static final List<Rule> BUILT_IN = List.of(
      rule("(^|[-_])(oltp_)?read[-_](only|write)($|[-_])", OTHER),
      rule("update|insert|delete|write|upsert|tpcb", WRITES),
      rule("range|scan", RANGE),
      rule("point|select[-_]only|lookup", POINT));

  /** The mapping file's content. */
  public record Mapping(Map<String, String> steps, List<RuleSpec> rules) {
    public record RuleSpec(String match, String group) {}
  }

  private final Map<String, String> exact;
  private final List<Rule> userRules;

  private StepGroups(Map<String, String> exact, List<Rule> userRules) {
    this.exact = Map.copyOf(exact);
    this.userRules = List.copyOf(userRules);
  }

  /** The built-in rules only. */
  public static StepGroups builtIn() {
    return new StepGroups(Map.of(), List.of());
  }

  /**
   * The rules of a mapping file, before the built-in ones.
   *
   * @throws BadInputException naming the file and what is wrong
   */
  public static StepGroups read(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new BadInputException(file + ": groups file not found");
    }
    String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
    ObjectMapper mapper = name.endsWith(".yaml") || name.endsWith(".yml")
        ? YAMLMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build()
        : JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
    Mapping mapping;
    try {
      mapping = mapper.readValue(file.toFile(), Mapping.class);
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new BadInputException(file + ": not a groups file ({steps: {name: group}, rules: [{match: regex, group: g}]}): "
          + e.getOriginalMessage());
    } catch (IOException e) {
      throw new BadInputException(file + ": cannot read: " + e.getMessage(), e);
    }
    if (mapping == null) {
      throw new BadInputException(file + ": the groups file is empty");
    }
    List<Rule> rules = new ArrayList<>();
    for (Mapping.RuleSpec spec : mapping.rules() == null ? List.<Mapping.RuleSpec>of() : mapping.rules()) {
      if (spec == null || spec.match() == null || spec.group() == null || spec.group().isBlank()) {
        throw new BadInputException(file + ": each rule needs 'match' (a regular expression) and 'group'");
      }
      try {
        rules.add(rule(spec.match(), spec.group().trim()));
      } catch (PatternSyntaxException e) {
        throw new BadInputException(file + ": rule '" + spec.match() + "' is not a regular expression: " + e.getDescription());
      }
    }
    Map<String, String> steps = mapping.steps() == null ? Map.of() : mapping.steps();
    steps.forEach((step, group) -> {
      if (group == null || group.isBlank()) {
        throw new BadInputException(file + ": step '" + step + "' has no group");
      }
    });
    return new StepGroups(steps, rules);
  }

  /** The group of {@code step}. */
  public String groupOf(String step) {
    String mapped = exact.get(step);
    if (mapped != null) {
      return mapped.trim();
    }
    for (Rule rule : userRules) {
      if (rule.pattern().matcher(step).find()) {
        return rule.group();
      }
    }
    java.util.regex.Matcher mytools = MYTOOLS.matcher(step);
    String group = mytools.matches() ? MYTOOLS_GROUPS.get(mytools.group(1).toLowerCase(Locale.ROOT)) : null;
    if (group != null) {
      return "warm".equalsIgnoreCase(mytools.group(2)) ? WARM_UP : group;
    }
    for (Rule rule : BUILT_IN) {
      if (rule.pattern().matcher(step).find()) {
        return rule.group();
      }
    }
    return OTHER;
  }

  private static Map<String, String> mytoolsGroups() {
    Map<String, String> groups = new java.util.HashMap<>();
    List.of("point-query", "hot-points", "points-covered-pk", "points-covered-si", "points-notcovered-pk",
        "points-notcovered-si").forEach(t -> groups.put(t, POINT_1));
    groups.put("random-points", POINT_2);
    List.of("range-covered-pk", "range-covered-si", "range-notcovered-pk", "range-notcovered-si", "scan", "full-scan",
        "read-only-simple").forEach(t -> groups.put(t, RANGE_1));
    List.of("read-only", "read-only-sum", "read-only-count", "read-only-distinct", "read-only-order")
        .forEach(t -> groups.put(t, RANGE_2));
    List.of("insert", "update-inlist", "update-index", "update-nonindex", "update-one", "update-zipf", "update-special",
        "update-rate", "delete", "write-only", "read-write").forEach(t -> groups.put(t, WRITES));
    return Map.copyOf(groups);
  }

  /**
   * Groups in reading order: point (then its two parts), range (then its two parts), writes, the
   * warm-up, the mapping file's own groups by name, other.
   */
  public static Comparator<String> order() {
    return Comparator.<String>comparingInt(StepGroups::rank).thenComparing(Comparator.naturalOrder());
  }

  private static int rank(String group) {
    return group.equals(OTHER) ? BUILT_IN_ORDER.size() : BUILT_IN_ORDER.contains(group) ? BUILT_IN_ORDER.indexOf(group)
        : BUILT_IN_ORDER.size() - 1;
  }

  private static Rule rule(String regex, String group) {
    return new Rule(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE), group);
  }
}
