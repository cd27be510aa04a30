package dev.benchlake.core.redaction;

import dev.benchlake.core.TerminalText;
import java.util.List;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.plugins.Plugin;
import org.apache.logging.log4j.core.layout.PatternLayout;
import org.apache.logging.log4j.core.pattern.ConverterKeys;
import org.apache.logging.log4j.core.pattern.LogEventPatternConverter;
import org.apache.logging.log4j.core.pattern.PatternConverter;
import org.apache.logging.log4j.core.pattern.PatternFormatter;

/**
 * {@code %terminal{pattern}} in a log4j pattern: the pattern's text with every control character
 * but the line ends and tabs shown as an escape ({@link TerminalText#escapeLines}), so that a log line on stderr cannot
 * recolour or retitle a terminal with a step name or a file name it quotes. bin/benchlake's
 * {@code log4j2.properties} wraps its whole console pattern in it, stack traces included (an
 * exception's message quotes what it failed on). Modelled on log4j's own {@code %enc}.
 */
@Plugin(name = "terminal", category = PatternConverter.CATEGORY)
@ConverterKeys({"terminal"})
public final class TerminalPatternConverter extends LogEventPatternConverter {
  private final List<PatternFormatter> formatters;

  private TerminalPatternConverter(List<PatternFormatter> formatters) {
    super("terminal", "terminal");
    this.formatters = formatters;
  }

  /** log4j's factory: {@code options[0]} is the pattern inside the braces. */
  public static TerminalPatternConverter newInstance(Configuration config, String[] options) {
    if (options == null || options.length != 1 || options[0] == null) {
      throw new IllegalArgumentException("%terminal takes one pattern: %terminal{%m%n}");
    }
    return new TerminalPatternConverter(PatternLayout.createPatternParser(config).parse(options[0]));
  }

  @Override
  public boolean handlesThrowable() {
    return formatters.stream().anyMatch(PatternFormatter::handlesThrowable);
  }

  @Override
  public void format(LogEvent event, StringBuilder toAppendTo) {
    int start = toAppendTo.length();
    for (PatternFormatter formatter : formatters) {
      formatter.format(event, toAppendTo);
    }
    String text = toAppendTo.substring(start);
    toAppendTo.setLength(start);
    toAppendTo.append(TerminalText.escapeLines(text));
  }
}
