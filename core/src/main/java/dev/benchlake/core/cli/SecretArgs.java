package dev.benchlake.core.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A command line as it may be shown or stored (report provenance, {@code batch}'s echo): the value
 * of every {@code --conf KEY=VALUE} whose key names a secret (s3a's {@code fs.s3a.secret.key},
 * {@code fs.s3a.access.key}, a session token, any password) is replaced. The keys are Spark's own
 * redaction rule ({@code spark.redaction.regex}'s default), so what Spark hides, benchlake hides.
 */
public final class SecretArgs {
  /** Spark's default {@code spark.redaction.regex}. */
  private static final Pattern SECRET_KEY = Pattern.compile("(?i)secret|password|token|access[.]?key");
  public static final String REDACTED = "*********(redacted)";

  private SecretArgs() {}

  public static List<String> redacted(List<String> args) {
    List<String> out = new ArrayList<>(args.size());
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--conf") && i + 1 < args.size()) {
        out.add(arg);
        out.add(redactedSetting(args.get(++i)));
      } else if (arg.startsWith("--conf=")) {
        out.add("--conf=" + redactedSetting(arg.substring("--conf=".length())));
      } else {
        out.add(arg);
      }
    }
    return out;
  }

  /** {@code KEY=VALUE} with the value replaced when the key names a secret. */
  static String redactedSetting(String setting) {
    int eq = setting.indexOf('=');
    return eq > 0 && SECRET_KEY.matcher(setting.substring(0, eq)).find() ? setting.substring(0, eq + 1) + REDACTED
        : setting;
  }
}
