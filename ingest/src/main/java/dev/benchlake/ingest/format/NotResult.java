package dev.benchlake.ingest.format;

/**
 * A file of the inputs that was not read, and why: it is not a result (what it is: "vmstat
 * capture", "no known format: first line …"), or it is hidden (a name starting with {@code .},
 * a file or a whole folder of {@code files} files).
 */
public record NotResult(String path, String reason, Kind kind, int files) {
  public enum Kind {
    NOT_A_RESULT,
    HIDDEN
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

  /**
   * The summary's line: {@code PATH: not a result (WHAT), not read}, or
   * {@code PATH: hidden folder (N files), not read: name it to ingest it}.
   */
  public String line() {
    return kind == Kind.HIDDEN ? path + ": " + reason + ", not read: name it to ingest it"
        : path + ": not a result (" + reason + "), not read";
  }
}
