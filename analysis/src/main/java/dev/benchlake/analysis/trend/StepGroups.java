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
 * Which group a step belongs to in a trend: {@value #POINT}, {@value #RANGE}, {@value #WRITES} or
 * {@value #OTHER}, decided by the first that applies of:
 * <ol>
 *   <li>the mapping file's {@code steps} (exact step names);
 *   <li>the mapping file's {@code rules} (regular expressions found anywhere in the name,
 *       case-insensitive), in order;
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
  private static final List<String> BUILT_IN_ORDER = List.of(POINT, RANGE, WRITES, OTHER);

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
  private final List<Rule> rules;

  private StepGroups(Map<String, String> exact, List<Rule> rules) {
    this.exact = Map.copyOf(exact);
    this.rules = List.copyOf(rules);
  }

  /** The built-in rules only. */
  public static StepGroups builtIn() {
    return new StepGroups(Map.of(), BUILT_IN);
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
    rules.addAll(BUILT_IN);
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
    for (Rule rule : rules) {
      if (rule.pattern().matcher(step).find()) {
        return rule.group();
      }
    }
    return OTHER;
  }

  /** Groups in reading order: point, range, writes, the mapping file's own groups by name, other. */
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
