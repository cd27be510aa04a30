package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code --label-from-path}: named groups found in a path are labels; the rules around them. */
class PathLabelsTest {
  private static final Path SB_O = Path.of("/data/r2/x.pg1615_embedded.default.pk1/sb.o.point-query.range100.pk1.dop1");

  @Test
  void namedGroupsFoundInThePathAreLabels() {
    PathLabels rules = PathLabels.of(List.of("x\\.pg(?<db_major>\\d\\d)(?<db_minor>\\d+)_", "/r(?<round>\\d+)/"), false);
    assertThat(rules.keys()).containsExactly("db_major", "db_minor", "round");
    assertThat(rules.labels(SB_O)).containsExactly(Map.entry("db_major", "16"), Map.entry("db_minor", "15"),
        Map.entry("round", "2"));
  }

  @Test
  void aGroupThatTookNoPartGivesNoLabel() {
    PathLabels rules = PathLabels.of(List.of("x\\.pg\\d+(?:_(?<build>nothere))?_embedded\\.(?<config>[^.]+)\\.(?<empty>z*)"), false);
    assertThat(rules.labels(SB_O)).containsExactly(Map.entry("config", "default"));
  }

  @Test
  void aPathThatDoesNotMatchIsAnErrorUnlessOptional() {
    Path other = Path.of("/data/results/oltp_read_write.txt");
    assertThatThrownBy(() -> PathLabels.of(List.of("x\\.pg(?<db_major>\\d\\d)"), false).labels(other))
        .isInstanceOf(BadInputException.class)
        .hasMessage("/data/results/oltp_read_write.txt: --label-from-path 'x\\.pg(?<db_major>\\d\\d)' does not match this"
            + " path (add --label-from-path-optional to ingest such paths without its labels)");
    assertThat(PathLabels.of(List.of("x\\.pg(?<db_major>\\d\\d)"), true).labels(other)).isEmpty();
    assertThat(PathLabels.of(List.of("x\\.pg(?<db_major>\\d\\d)"), true).labels(SB_O)).containsEntry("db_major", "16");
  }

  @Test
  void aRegexWithoutNamedGroupsOrThatDoesNotCompileIsAnError() {
    assertThatThrownBy(() -> PathLabels.of(List.of("x\\.pg(\\d\\d)"), false)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--label-from-path 'x\\.pg(\\d\\d)' has no named group");
    // Look-behinds, escaped parentheses and character classes are not named groups.
    for (String notNamed : List.of("(?<=x\\.pg)\\d\\d", "(?<!y)\\d", "\\(?<a>\\d", "[(?<a>]\\d", "\\Q(?<a>\\E")) {
      assertThatThrownBy(() -> PathLabels.of(List.of(notNamed), false)).as(notNamed)
          .hasMessageContaining("has no named group");
    }
    assertThatThrownBy(() -> PathLabels.of(List.of("(?<db_major>\\d\\d"), false)).isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("--label-from-path '(?<db_major>\\d\\d' is not a regex RE2 can run: missing closing )");
    assertThatThrownBy(() -> PathLabels.of(List.of("(?<9lives>\\d)"), false))
        .hasMessageContaining("group name '9lives' is not a label key");
    assertThatThrownBy(() -> PathLabels.of(List.of("(?<a>\\d)(?<a>\\d)"), false)).hasMessageContaining("named twice");
  }

  /**
   * What RE2 cannot run is refused by name, before anything is read: never compiled into something
   * that matches otherwise (a class intersection would be two literal ampersands to RE2).
   */
  @Test
  void whatNeedsBacktrackingIsRefusedByName() {
    Map<String, String> refused = new java.util.LinkedHashMap<>();
    refused.put("/(?<dir_letter>[a-z])\\.\\k<dir_letter>?pg", "a backreference (\\k<…>)");
    refused.put("/(?<dir_letter>[a-z])\\.\\1", "a backreference (\\1)");
    refused.put("(?<=x\\.)(?<dbms>pg)", "a lookbehind ((?<=…))");
    refused.put("(?<!y)(?<dbms>pg)", "a negative lookbehind ((?<!…))");
    refused.put("(?<dbms>pg)(?=\\d)", "a lookahead ((?=…))");
    refused.put("(?<dbms>pg)(?!\\d)", "a negative lookahead ((?!…))");
    refused.put("(?>x)(?<dbms>pg)", "an atomic group ((?>…))");
    refused.put("x\\.(?<dbms>[a-z]++)", "a possessive quantifier (++)");
    refused.put("x\\.(?<dbms>[a-z&&[^x]]+)", "a class intersection (&&)");
    refused.forEach((regex, construct) -> assertThatThrownBy(() -> PathLabels.of(List.of(regex), false)).as(regex)
        .isInstanceOf(BadInputException.class)
        .hasMessage("--label-from-path '" + regex + "' uses " + construct + ", which RE2 (the linear-time engine that"
            + " runs these regexes) cannot run: without backreferences, lookaround, atomic groups, possessive quantifiers"
            + " and class intersections, Java's syntax is RE2's"));
    // Lazy quantifiers, non-capturing groups, flags and Python's (?P<name>…) are RE2's too.
    assertThat(PathLabels.of(List.of("(?i)X\\.(?P<dbms>[a-z]+?)\\d(?:\\d+)_"), false).labels(SB_O))
        .containsExactly(Map.entry("dbms", "pg"));
  }

  /** A regex that makes a backtracking engine run for minutes on a long path takes time linear in the path. */
  @Test
  @org.junit.jupiter.api.Timeout(value = 5, threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD)
  void aPathologicalRegexOnALongPathFinishesFast() {
    PathLabels rules = PathLabels.of(List.of("(?<run>(?:x+){14}y)"), false);
    Path path = Path.of("/data/" + "x".repeat(4000) + "/results.csv");
    assertThatThrownBy(() -> rules.labels(path)).isInstanceOf(BadInputException.class)
        .hasMessageEndingWith("does not match this path (add --label-from-path-optional to ingest such paths without its labels)");
    assertThat(rules.labels(Path.of("/data/xxxxxxxxxxxxxxy/r.csv"))).containsEntry("run", "xxxxxxxxxxxxxxy");
  }

  @Test
  void aValueThatIsNotAValidLabelIsAnError() {
    assertThatThrownBy(() -> PathLabels.of(List.of("x\\.(?<db_major>[a-z]+)"), false).labels(SB_O))
        .isInstanceOf(BadInputException.class)
        .hasMessageContaining("label 'db_major' must be a whole number, not 'pg'");
  }

  @Test
  void twoValuesForOneKeyAreAnError() {
    PathLabels rules = PathLabels.of(List.of("/r(?<round>\\d)/", "dop(?<round>\\d)"), false);
    assertThatThrownBy(() -> rules.labels(SB_O)).isInstanceOf(BadInputException.class)
        .hasMessageContaining("--label-from-path gives round two values, '2' and '1'");
    assertThat(PathLabels.of(List.of("/r(?<round>\\d)/", "/r(?<round>\\d)/x"), false).labels(SB_O))
        .containsEntry("round", "2");
  }

  @Test
  void aKeyAlsoGivenByLabelIsAnError() {
    PathLabels rules = PathLabels.of(List.of("x\\.pg(?<db_major>\\d\\d)"), false);
    assertThatThrownBy(() -> rules.checkAgainst(Map.of("db_major", "16"))).isInstanceOf(BadInputException.class)
        .hasMessage("label db_major is given by --label db_major=16 and by --label-from-path: give it one way");
    rules.checkAgainst(Map.of("os", "linux"));
    PathLabels.NONE.checkAgainst(Map.of("db_major", "16"));
  }
}
