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
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;

/**
 * {@code --label-from-path REGEX} (repeatable) and {@code --label-from-path-optional}: labels read
 * from a run's path, for every format.
 *
 * <p>Each named group of a regex found ({@link Matcher#find}) in the path of a source's first file
 * (absolute, {@code /}-separated: a loadgen run's {@code manifest.json}, an {@code sb.o} file…)
 * becomes a label: {@code x\.pg(?<db_major>\d\d)(?<db_minor>\d+)_} gives {@code db_major=16} and
 * {@code db_minor=15} for {@code …/x.pg1615_embedded.default.pk1/…}. Group names are label keys
 * (letters, digits and {@code _}, not starting with a digit). A group that took no part in the
 * match, or matched nothing, gives no label.
 *
 * <p>The regexes run on RE2/J, whose matching takes time linear in the path whatever the regex (a
 * backtracking engine ran {@code (?:x+){14}y} for minutes on one long path). Its syntax is Java's
 * without what needs backtracking: backreferences ({@code \1}, {@code \k<name>}), lookahead and
 * lookbehind ({@code (?=…)}, {@code (?!…)}, {@code (?<=…)}, {@code (?<!…)}), atomic groups
 * ({@code (?>…)}), possessive quantifiers ({@code a*+}) and class intersection ({@code [a-z&&[^x]]})
 * are refused with a message naming the construct, never read as something else.
 *
 * <p>Errors (exit 2, before anything is written): a regex that does not compile, uses one of those
 * constructs or has no named group; a path that one of the regexes does not match, unless
 * {@code optional}; two regexes giving one key different values for one path; a value that is not a
 * valid label (a {@code db_major} that is not a number). A key also given by {@code --label} is
 * refused: which of the two was meant cannot be guessed, and the path would be silently ignored
 * otherwise. Path labels override the labels a source carries itself (a loadgen manifest's, a
 * mytools folder's).
 */
public final class PathLabels {
  /** No rules: no labels. */
  public static final PathLabels NONE = new PathLabels(List.of(), false);

  /** What a group's name may be: a label key. */
  private static final java.util.regex.Pattern GROUP_NAME = java.util.regex.Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private final List<Rule> rules;
  private final boolean optional;

  private record Rule(String regex, Pattern pattern, List<String> keys) {}

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
    return rules.stream().flatMap(r -> r.keys().stream()).distinct().toList();
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
      for (String key : rule.keys()) {
        String value = m.group(key);
        if (value == null || value.isEmpty()) {
          continue;
        }
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
   * Compiles {@code regex} with RE2/J after checking its named groups (label keys, each once) and
   * refusing what RE2 cannot run, by name.
   */
  private static Rule compile(String regex) {
    List<String> names = new ArrayList<>();
    String unsupported = null;
    boolean inClass = false;
    // The last token was a quantifier (*, +, ?, {n,m}): a + after it makes it possessive.
    boolean afterQuantifier = false;
    for (int i = 0; i < regex.length(); i++) {
      char c = regex.charAt(i);
      boolean quantifier = false;
      if (c == '\\' && i + 1 < regex.length()) {
        char next = regex.charAt(i + 1);
        if (next == 'Q') {
          int end = regex.indexOf("\\E", i + 2);
          i = (end < 0 ? regex.length() : end + 2) - 1;
        } else {
          if (!inClass && next >= '1' && next <= '9') {
            unsupported = unsupported != null ? unsupported : "a backreference (\\" + next + ")";
          } else if (!inClass && next == 'k' && i + 2 < regex.length() && regex.charAt(i + 2) == '<') {
            unsupported = unsupported != null ? unsupported : "a backreference (\\k<…>)";
          }
          i++;
        }
      } else if (inClass) {
        if (c == ']') {
          inClass = false;
        } else if (c == '&' && regex.startsWith("&&", i)) {
          unsupported = unsupported != null ? unsupported : "a class intersection (&&)";
        } else if (c == '[') {
          unsupported = unsupported != null ? unsupported : "a class inside a class ([a[b]])";
        }
      } else if (c == '[') {
        inClass = true;
        // A ']' right after '[' or '[^' is a literal member, not the end of the class.
        if (i + 1 < regex.length() && regex.charAt(i + 1) == '^') {
          i++;
        }
        if (i + 1 < regex.length() && regex.charAt(i + 1) == ']') {
          i++;
        }
      } else if (c == '(' && regex.startsWith("(?", i)) {
        String construct = regex.startsWith("(?<=", i) ? "a lookbehind ((?<=…))"
            : regex.startsWith("(?<!", i) ? "a negative lookbehind ((?<!…))"
            : regex.startsWith("(?=", i) ? "a lookahead ((?=…))"
            : regex.startsWith("(?!", i) ? "a negative lookahead ((?!…))"
            : regex.startsWith("(?>", i) ? "an atomic group ((?>…))" : null;
        if (construct != null) {
          unsupported = unsupported != null ? unsupported : construct;
          i++;
        } else if (regex.startsWith("(?<", i) || regex.startsWith("(?P<", i)) {
          int start = regex.indexOf('<', i) + 1;
          int close = regex.indexOf('>', start);
          String name = close < 0 ? "" : regex.substring(start, close);
          if (!GROUP_NAME.matcher(name).matches()) {
            throw new BadInputException("--label-from-path '" + regex + "': group name '" + name
                + "' is not a label key (letters, digits and _, not starting with a digit)");
          }
          if (names.contains(name)) {
            throw new BadInputException("--label-from-path '" + regex + "': group " + name + " is named twice");
          }
          names.add(name);
          i = close;
        } else {
          // (?: and flags are left to RE2; the '?' after '(' is not a quantifier.
          i++;
        }
      } else if (c == '*' || c == '+' || c == '?' || c == '}') {
        if (c == '+' && afterQuantifier) {
          unsupported = unsupported != null ? unsupported : "a possessive quantifier (" + regex.charAt(i - 1) + "+)";
        }
        // A ? after a quantifier makes it lazy (RE2 has those) and is not one itself.
        quantifier = !(c == '?' && afterQuantifier);
      }
      afterQuantifier = quantifier;
    }
    if (names.isEmpty()) {
      throw new BadInputException("--label-from-path '" + regex + "' has no named group: name each part that is a label,"
          + " e.g. 'x\\.pg(?<db_major>\\d\\d)'");
    }
    if (unsupported != null) {
      throw new BadInputException("--label-from-path '" + regex + "' uses " + unsupported + ", which RE2 (the"
          + " linear-time engine that runs these regexes) cannot run: without backreferences, lookaround, atomic groups,"
          + " possessive quantifiers and class intersections, Java's syntax is RE2's");
    }
    Pattern pattern;
    try {
      pattern = Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new BadInputException("--label-from-path '" + regex + "' is not a regex RE2 can run: " + e.getDescription()
          + (e.getPattern() == null || e.getPattern().isEmpty() ? "" : " at '" + e.getPattern() + "'"), e);
    }
    return new Rule(regex, pattern, List.copyOf(names));
  }
}
