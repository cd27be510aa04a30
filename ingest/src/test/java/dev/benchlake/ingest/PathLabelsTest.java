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
        .hasMessageStartingWith("--label-from-path '(?<db_major>\\d\\d' is not a Java regex: ");
    assertThatThrownBy(() -> PathLabels.of(List.of("(?<9lives>\\d)"), false))
        .hasMessageContaining("group name '9lives' is not a label key");
    assertThatThrownBy(() -> PathLabels.of(List.of("(?<a>\\d)(?<a>\\d)"), false)).hasMessageContaining("named twice");
  }

  @Test
  void backReferencesFollowTheRenamedGroups() {
    PathLabels rules = PathLabels.of(List.of("/(?<dir_letter>[a-z])\\.\\k<dir_letter>?pg"), false);
    assertThat(rules.labels(SB_O)).containsExactly(Map.entry("dir_letter", "x"));
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
