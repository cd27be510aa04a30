package dev.benchlake.core.cli;

import dev.benchlake.core.BenchlakeVersion;
import picocli.CommandLine;

/** {@code --version} for every command. */
public final class VersionProvider implements CommandLine.IVersionProvider {
  @Override
  public String[] getVersion() {
    return new String[] {
      BenchlakeVersion.describe(),
      "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")"
    };
  }
}
