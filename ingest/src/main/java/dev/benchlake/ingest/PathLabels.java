package dev.benchlake.ingest;

import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * {@code --label-from-path REGEX} (repeatable) and {@code --label-from-path-optional}: labels read
 * from a run's path, for every format.
 *
 * <p>Each named group of a Java regex found ({@link Matcher#find}) in the path of a source's first
 * file (absolute, {@code /}-separated: a loadgen run's {@code manifest.json}, an {@code sb.o} file…)
 * becomes a label: {@code x\.pg(?<db_major>\d\d)(?<db_minor>\d+)_} gives {@code db_major=16} and
 * {@code db_minor=15} for {@code …/x.pg1615_embedded.default.pk1/…}. Group names may contain
 * {@code _} (label keys do; Java's own group names may not, so they are renamed inside). A group
 * that took no part in the match, or matched nothing, gives no label.
 *
 * <p>Errors (exit 2, before anything is written): a regex that does not compile or has no named
 * group; a path that one of the regexes does not match, unless {@code optional}; two regexes giving
 * one key different values for one path; a value that is not a valid label (a {@code db_major} that
 * is not a number). A key also given by {@code --label} is refused: which of the two was meant
 * cannot be guessed, and the path would be silently ignored otherwise. Path labels override the
 * labels a source carries itself (a loadgen manifest's, a mytools folder's).
 */
public final class PathLabels {
  /** No rules: no labels. */
  public static final PathLabels NONE = new PathLabels(List.of(), false);

  /** What a group's name may be: a label key that Java would accept but for its {@code _}. */
  private static final Pattern GROUP_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final List<Rule> rules;
  private final boolean optional;

  private record Rule(String regex, Pattern pattern, Map<String, String> groupToKey) {}

  private PathLabels(List<Rule> rules, boolean optional) {
    this.rules = List.copyOf(rules);
    this.optional = optional;
  }

  /**
   * @throws BadInputException for a regex that does not compile or has no named group
   */
  public static PathLabels of(List<String> regexes, boolean optional) {
    List<Rule> rules = new ArrayList<>();
    for (String regex : regexes == null ? List.<String>of() : regexes) {
      rules.add(compile(regex));
    }
    return new PathLabels(rules, optional);
  }

  public boolean isEmpty() {
    return rules.isEmpty();
  }

  /** The label keys the rules can give, in order. */
  public List<String> keys() {
    return rules.stream().flatMap(r -> r.groupToKey().values().stream()).distinct().toList();
  }

  /**
   * The labels of a local {@code path}.
   *
   * @throws BadInputException naming the path and the regex when one does not match (unless
   *     optional), when two give one key different values, or when a value is not a valid label
   */
  public Map<String, String> labels(Path path) {
    return labels(path.toAbsolutePath().normalize().toString().replace(File.separatorChar, '/'));
  }

  /** The labels of a location: a local file's absolute path, or the URI of a remote one ({@code hdfs://host/…}). */
  public Map<String, String> labels(org.apache.hadoop.fs.Path location) {
    return labels(location.toString());
  }

  private Map<String, String> labels(String text) {
    Map<String, String> labels = new TreeMap<>();
    for (Rule rule : rules) {
      Matcher m = rule.pattern().matcher(text);
      if (!m.find()) {
        if (optional) {
          continue;
        }
        throw new BadInputException(text + ": --label-from-path '" + rule.regex() + "' does not match this path"
            + " (add --label-from-path-optional to ingest such paths without its labels)");
      }
      for (Map.Entry<String, String> group : rule.groupToKey().entrySet()) {
        String value = m.group(group.getKey());
        if (value == null || value.isEmpty()) {
          continue;
        }
        String key = group.getValue();
        try {
          Labels.validate(key, value);
        } catch (IllegalArgumentException e) {
          throw new BadInputException(text + ": --label-from-path '" + rule.regex() + "': " + e.getMessage(), e);
        }
        String before = labels.putIfAbsent(key, value);
        if (before != null && !before.equals(value)) {
          throw new BadInputException(text + ": --label-from-path gives " + key + " two values, '" + before + "' and '"
              + value + "' (from '" + rule.regex() + "')");
        }
      }
    }
    return labels;
  }

  /**
   * Refuses a key given both by {@code --label} and by a regex.
   *
   * @throws BadInputException naming the key
   */
  public void checkAgainst(Map<String, String> cliLabels) {
    for (String key : keys()) {
      if (cliLabels.containsKey(key)) {
        throw new BadInputException("label " + key + " is given by --label " + key + "=" + cliLabels.get(key)
            + " and by --label-from-path: give it one way");
      }
    }
  }

  /**
   * Compiles {@code regex} with its named groups renamed ({@code _} is not allowed in Java's group
   * names); back-references {@code \k<name>} follow.
   */
  private static Rule compile(String regex) {
    StringBuilder java = new StringBuilder();
    Map<String, String> names = new LinkedHashMap<>();
    boolean inClass = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      if (c == '\\' && i + 1 < regex.length()) {
        char next = regex.charAt(i + 1);
        if (next == 'Q') {
          int end = regex.indexOf("\\E", i + 2);
          int stop = end < 0 ? regex.length() : end + 2;
          java.append(regex, i, stop);
          i = stop - 1;
        } else if (next == 'k' && !inClass && i + 2 < regex.length() && regex.charAt(i + 2) == '<') {
          int close = regex.indexOf('>', i + 3);
          String name = close < 0 ? null : regex.substring(i + 3, close);
          if (name != null && names.containsKey(name)) {
            java.append("\\k<").append(names.get(name)).append('>');
            i = close;
          } else {
            java.append(c).append(next);
            i++;
          }
        } else {
          java.append(c).append(next);
          i++;
        }
      } else if (c == '[' && !inClass) {
        inClass = true;
        java.append(c);
        // A ']' right after '[' or '[^' is a literal member, not the end of the class.
        if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
          java.append('^');
          i++;
        }
        if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
          java.append(']');
          i++;
        }
      } else if (c == ']' && inClass) {
        inClass = false;
        java.append(c);
      } else if (c == '(' && !inClass && regex.startsWith("(?<", i) && i + 3 < regex.length()
          && regex.charAt(i + 3) != '=' && regex.charAt(i + 3) != '!') {
        int close = regex.indexOf('>', i + 3);
        String name = close < 0 ? "" : regex.substring(i + 3, close);
        if (!GROUP_NAME.matcher(name).matches()) {
          throw new BadInputException("--label-from-path '" + regex + "': group name '" + name
              + "' is not a label key (letters, digits and _, not starting with a digit)");
        }
        if (names.containsKey(name)) {
          throw new BadInputException("--label-from-path '" + regex + "': group " + name + " is named twice");
        }
        names.put(name, "g" + names.size() + "x");
        java.append("(?<").append(names.get(name)).append('>');
        i = close;
      } else {
        java.append(c);
      }
    }
    if (names.isEmpty()) {
      throw new BadInputException("--label-from-path '" + regex + "' has no named group: name each part that is a label,"
          + " e.g. 'x\\.pg(?<db_major>\\d\\d)'");
    }
    Pattern pattern;
    try {
      pattern = Pattern.compile(java.toString());
    } catch (PatternSyntaxException e) {
      throw new BadInputException("--label-from-path '" + regex + "' is not a Java regex: " + e.getDescription(), e);
    }
    Map<String, String> groupToKey = new LinkedHashMap<>();
    names.forEach((key, group) -> groupToKey.put(group, key));
    return new Rule(regex, pattern, groupToKey);
  }
}
