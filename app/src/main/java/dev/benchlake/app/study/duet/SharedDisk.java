package dev.benchlake.app.study.duet;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A duet's two embedded servers write to this machine's one disk. With durable commits both sides
 * queue on its flushes, so a side whose write path is faster cannot show it: on the quickstart's
 * 2-core VM, 17 against 14 came out equivalent on insert and update-index with
 * {@code synchronous_commit=on} and 40–42 % faster with {@code off} on both sides
 * (docs/designs.md, "What the duet assumes"). So a duet's embedded servers commit without waiting
 * for the flush unless the user keeps them durable ({@code --durable-commits}) or sets
 * {@code synchronous_commit} on a side: the writes still go to the WAL and the disk, in the
 * background, and each run's manifest records the setting (its server's non-default settings).
 */
public final class SharedDisk {
  /** The setting a duet changes, and its value there. */
  public static final String SETTING = "synchronous_commit";
  public static final String ASYNC = "off";

  private SharedDisk() {}

  /**
   * An embedded side's server settings in a duet: the user's, with {@link #SETTING}{@code =off}
   * added unless the commits stay durable or the user set it.
   */
  public static Map<String, String> settings(Map<String, String> user, boolean durableCommits) {
    if (durableCommits || user.keySet().stream().anyMatch(SETTING::equalsIgnoreCase)) {
      return user;
    }
    Map<String, String> settings = new LinkedHashMap<>(user);
    settings.put(SETTING, ASYNC);
    return settings;
  }

  /** What a study says on stderr before it starts, in a duet: how its write steps can be read. */
  public static String notice(boolean durableCommits) {
    return durableCommits
        ? "duet: --durable-commits: both sides' commits wait on this machine's one disk, so write steps measure its "
            + "flushes more than the servers (a side with a faster write path cannot show it)"
        : "duet: both sides' embedded servers run with synchronous_commit=off (they share one disk, whose flushes "
            + "would hide a difference in the servers' write paths); --durable-commits keeps commits durable";
  }
}
