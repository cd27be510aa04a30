package dev.benchlake.app.study;

import dev.benchlake.app.study.duet.SharedDisk;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.loadgen.LoadgenConfig;
import dev.benchlake.loadgen.db.EmbeddedServer;
import java.io.PrintWriter;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A study's {@code --pg-setting}s, checked on a server of each major before anything runs or is
 * written: the server itself validates them (loadgen applies them with ALTER SYSTEM), and a study
 * of hours must not stop at its fifth run on a setting an older major does not know.
 */
final class StudySettings {
  private StudySettings() {}

  /**
   * Starts (and stops) one embedded server per distinct major and settings among {@code targets}
   * that have settings.
   *
   * @param connections the connections the runs will hold (the server's max_connections follows them)
   * @throws BadInputException naming the major and the setting it refused
   */
  static void check(List<LoadgenConfig.Target> targets, int connections, PrintWriter log) {
    Set<LoadgenConfig.Embedded> distinct = new LinkedHashSet<>();
    for (LoadgenConfig.Target t : targets) {
      if (t instanceof LoadgenConfig.Embedded e) {
        // A duet's synchronous_commit=off is valid on every major: no server started for it alone.
        java.util.Map<String, String> given = new java.util.LinkedHashMap<>(e.settings());
        given.remove(SharedDisk.SETTING, SharedDisk.ASYNC);
        if (!given.isEmpty()) {
          distinct.add(new LoadgenConfig.Embedded(e.major(), given, e.parentDir()));
        }
      }
    }
    for (LoadgenConfig.Embedded e : distinct) {
      log.println("study: checking --pg-setting " + new java.util.TreeMap<>(e.settings()) + " on PostgreSQL "
          + e.major());
      log.flush();
      try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(e.major(), e.settings(), connections,
          e.parentDir()))) {
        // Started with every setting applied: the server took them.
      } catch (BadInputException refused) {
        throw new BadInputException("PostgreSQL " + e.major() + ": " + refused.getMessage(), refused);
      }
    }
  }
}
