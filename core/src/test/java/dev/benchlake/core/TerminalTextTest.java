package dev.benchlake.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The one rule for terminal text: which characters are controls, and how each is shown. */
class TerminalTextTest {
  @Test
  void everyControlCharacterIsShownAsItsEscapeAndNothingElseChanges() {
    Map<String, String> shown = new LinkedHashMap<>();
    shown.put("plain ascii, é, 漢字, 😀, \\ kept", "plain ascii, é, 漢字, 😀, \\ kept");
    shown.put("\u001b[31mred", "\\u001b[31mred");
    shown.put("\u001b]0;title\u0007", "\\u001b]0;title\\u0007");
    shown.put("a\rb\nc\td", "a\\rb\\nc\\td");
    shown.put("\u0000\u001f\u007f", "\\u0000\\u001f\\u007f");
    shown.put("\u0080\u009b2J\u009f", "\\u0080\\u009b2J\\u009f");
    shown.put("line\u2028para\u2029", "line\\u2028para\\u2029");
    shown.put("\u00a0nbsp", "\u00a0nbsp");
    Map<String, String> actual = new LinkedHashMap<>();
    shown.keySet().forEach(k -> actual.put(k, TerminalText.escape(k)));
    assertThat(actual).isEqualTo(shown);
    for (char c = 0; c < 0x100; c++) {
      assertThat(TerminalText.escape(String.valueOf(c)).chars().noneMatch(x -> TerminalText.isControl((char) x)))
          .as("U+%04X", (int) c).isTrue();
    }
  }

  @Test
  void aStreamKeepsItsLineEndsAndItsRawWriterWhatBenchlakeMeans() {
    StringWriter text = new StringWriter();
    PrintWriter escaping = TerminalText.escaping(new PrintWriter(text));
    assertThat(TerminalText.escaping(escaping)).isSameAs(escaping);
    escaping.println("a\u001bb");
    escaping.print("c\nd\r");
    escaping.write('\u0007');
    escaping.write('\n');
    TerminalText.raw(escaping).print("\r" + TerminalText.escape("live \u001b"));
    escaping.flush();
    assertThat(text.toString()).isEqualTo("a\\u001bb\nc\nd\\r\\u0007\n\rlive \\u001b");
    assertThat(TerminalText.escapeLines("x\u001b\n\ty\r")).isEqualTo("x\\u001b\n\ty\\r");
  }

  @Test
  void aTableEscapesItsCellsBeforeItAlignsThem() {
    String table = new TextTable("step", "n").row("a\u001b[2Jb", 1).row("c", 22).render();
    assertThat(table).isEqualTo("step         n\na\\u001b[2Jb  1\nc            22\n");
  }
}
