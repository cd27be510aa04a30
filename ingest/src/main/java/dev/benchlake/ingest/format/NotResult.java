package dev.benchlake.ingest.format;

/**
 * A file of the inputs that was not read, and why: it is not a result (what it is: "vmstat
 * capture", "no known format: first line …"), it is hidden (a name starting with {@code .},
 * a file or a whole folder of {@code files} files), or it is another name of something read under
 * its first name, or a link that leads nowhere ({@link Kind#LINK}: no file is lost there, so it
 * counts none).
 */
public record NotResult(String path, String reason, Kind kind, int files) {
  public enum Kind {
    NOT_A_RESULT,
    HIDDEN,
    LINK
  }

  /** A file that is not a result, and what it is. */
  public NotResult(String path, String reason) {
    this(path, reason, Kind.NOT_A_RESULT, 1);
  }

  public static NotResult hiddenFolder(String path, int files) {
    return new NotResult(path, "hidden folder (" + files + " file" + (files == 1 ? "" : "s") + ")", Kind.HIDDEN, files);
  }

  public static NotResult hiddenFile(String path) {
    return new NotResult(path, "hidden file", Kind.HIDDEN, 1);
  }

  /** A link or a second name that is not followed, and why (the line's own words: {@code source.FileTree}'s). */
  public static NotResult link(String path, String why) {
    return new NotResult(path, why, Kind.LINK, 0);
  }

  /**
   * The summary's line: {@code PATH: not a result (WHAT), not read}, or
   * {@code PATH: hidden folder (N files), not read: name it to ingest it}, or
   * {@code PATH: a link to X, which holds it (a loop); not followed}.
   */
  public String line() {
    return switch (kind) {
      case HIDDEN -> path + ": " + reason + ", not read: name it to ingest it";
      case LINK -> path + ": " + reason;
      case NOT_A_RESULT -> path + ": not a result (" + reason + "), not read";
    };
  }
}
