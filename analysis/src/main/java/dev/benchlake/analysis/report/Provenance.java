package dev.benchlake.analysis.report;

import dev.benchlake.core.BenchlakeVersion;
import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;
import picocli.CommandLine.Model.CommandSpec;

/**
 * What a report was made from, so that it can be made again: the command, the warehouse folder and
 * the Delta version of its runs table (the commit point of every ingest: with the path, it pins
 * exactly the runs a report could see), and the benchlake build.
 *
 * @param commandLine the command as a shell would take it back
 * @param deltaVersion the runs table's Delta version when the report was made
 */
public record Provenance(String commandLine, String warehouse, long deltaVersion, String benchlakeVersion) {
  private static final Pattern SHELL_SAFE = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  /**
   * For a report made by {@code benchlake <command> <args…>} from {@code tables}: the one
   * {@link KernelWarehouse} the command read, so that the version is the runs table's commit it
   * read (taken once per command), not whatever an ingest has committed since.
   */
  public static Provenance of(KernelWarehouse tables, String command, List<String> args) {
    return new Provenance(commandLine(command, args), Redaction.scrub(tables.root()), tables.version(),
        BenchlakeVersion.describe());
  }

  /**
   * What the user typed after {@code spec}'s command name. picocli's original arguments are the
   * whole command line's: under {@code benchlake} (or a batch line) they begin with the command's
   * name, which {@link #commandLine} adds itself ("benchlake compare compare --warehouse …" before).
   */
  public static List<String> argsOf(CommandSpec spec) {
    List<String> all = spec.commandLine().getParseResult().originalArgs();
    if (spec.parent() == null) {
      return all;
    }
    for (int i = 0; i < all.size(); i++) {
      if (all.get(i).equals(spec.name()) || Arrays.asList(spec.aliases()).contains(all.get(i))) {
        return all.subList(i + 1, all.size());
      }
    }
    return all;
  }

  /**
   * {@code benchlake compare --baseline 'os=linux' …}: each argument quoted for a POSIX shell when it
   * needs it, every secret value replaced ({@link Redaction#args}: {@code --conf} credentials of any store,
   * passwords in URLs and options).
   */
  public static String commandLine(String command, List<String> args) {
    StringBuilder line = new StringBuilder("benchlake ").append(command);
    for (String arg : Redaction.args(args)) {
      line.append(' ').append(shellQuoted(arg));
    }
    return line.toString();
  }

  static String shellQuoted(String arg) {
    return SHELL_SAFE.matcher(arg).matches() ? arg : "'" + arg.replace("'", "'\\''") + "'";
  }
}
