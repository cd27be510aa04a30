package dev.benchlake.app.study;

import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A study command's defaults in one place, as option text by option name: the options the studies
 * share ({@link RoundsOption}, {@link SysbenchOptions}) are declared once, with no default of their
 * own, and each command (its default value provider) fills, shows and applies its own.
 */
public abstract class StudyDefaults implements IDefaultValueProvider {
  private final Map<String, String> text;

  protected StudyDefaults(Map<String, String> text) {
    this.text = Map.copyOf(text);
  }

  @Override
  public String defaultValue(ArgSpec argSpec) {
    return argSpec instanceof OptionSpec option ? text.get(option.longestName()) : null;
  }
}
