package dev.benchlake.app.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The words of a batch line are those a POSIX shell gives (checked with bash: printf '[%s]' WORDS). */
class ShellWordsTest {
  @Test
  void blanksSeparateAndQuotesJoin() {
    assertThat(ShellWords.split("  ingest --warehouse  wh\tresults/a  ")).containsExactly("ingest", "--warehouse", "wh",
        "results/a");
    assertThat(ShellWords.split("runs --where 'os=linux,note=a b' --json")).containsExactly("runs", "--where",
        "os=linux,note=a b", "--json");
    assertThat(ShellWords.split("x --label \"k=it's \\\"so\\\"\" a'b'\"c\"")).containsExactly("x", "--label",
        "k=it's \"so\"", "abc");
  }

  @Test
  void backslashesAsInAShell() {
    // bash: printf '[%s]' a\ b "c\d" 'e\f' "g\\h" \\ → [a b][c\d][e\f][g\h][\]
    assertThat(ShellWords.split("a\\ b \"c\\d\" 'e\\f' \"g\\\\h\" \\\\")).containsExactly("a b", "c\\d", "e\\f", "g\\h",
        "\\");
    assertThat(ShellWords.split("'$HOME' \"\\$HOME\" *.txt")).as("nothing is expanded").containsExactly("$HOME",
        "$HOME", "*.txt");
  }

  @Test
  void emptyQuotesAreAnEmptyWord() {
    assertThat(ShellWords.split("export --where '' --out -")).containsExactly("export", "--where", "", "--out", "-");
  }

  @Test
  void aHashStartsACommentOnlyAtTheStartOfAWord() {
    assertThat(ShellWords.split("# the whole line")).isEmpty();
    assertThat(ShellWords.split("   ")).isEmpty();
    assertThat(ShellWords.split("runs --where tag=a#1 # the rest")).containsExactly("runs", "--where", "tag=a#1");
    assertThat(ShellWords.split("runs '#not a comment'")).containsExactly("runs", "#not a comment");
  }

  @Test
  void anOpenQuoteIsAnErrorNamingItsColumn() {
    assertThatThrownBy(() -> ShellWords.split("runs --where 'os=linux")).hasMessage(
        "unterminated ' (a quote opened at column 14)");
    assertThatThrownBy(() -> ShellWords.split("runs \"a")).hasMessageContaining("unterminated \"");
  }
}
