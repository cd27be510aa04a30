package dev.benchlake.core.redaction;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * bin/benchlake's console pattern, taken from its log4j2.properties: a message and an exception that
 * quote a step name with escape sequences reach stderr escaped, one line each, the stack trace's
 * lines and their tabs kept.
 */
class TerminalPatternConverterTest {
  @Test
  void theLaunchersPatternEscapesEveryControlCharacterButTheLineEnds() throws Exception {
    String properties = Files.readString(Path.of("..", "app", "src", "main", "launcher", "log4j2.properties"));
    Matcher m = Pattern.compile("(?m)^appender\\.console\\.layout\\.pattern = (.*)$").matcher(properties);
    assertThat(m.find()).as("the launcher's console pattern").isTrue();
    try (CapturedLogs logs = new CapturedLogs("terminal-pattern-test", m.group(1))) {
      var log = logs.context.getLogger("dev.benchlake.test.Steps");
      log.info("step 1/2: {}", "a\u001b]0;pwned\u0007\u001b[31m\rb");
      log.warn("cannot read", new IllegalStateException("file x\u001b[2J.txt"));

      String text = logs.text();
      assertThat(text).contains("Steps: step 1/2: a\\u001b]0;pwned\\u0007\\u001b[31m\\rb\n")
          .contains("Steps: cannot read\njava.lang.IllegalStateException: file x\\u001b[2J.txt\n")
          .contains("\n\tat dev.benchlake.");
      assertThat(text.chars().filter(c -> c != '\n' && c != '\t' && dev.benchlake.core.TerminalText.isControl((char) c))).isEmpty();
    }
  }
}
