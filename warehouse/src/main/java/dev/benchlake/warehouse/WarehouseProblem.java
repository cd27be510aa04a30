package dev.benchlake.warehouse;

/**
 * One thing wrong with a warehouse: the file it is about (as the user sees it: a local file as
 * its plain path, a remote one as its URI) and what is wrong with it.
 */
public record WarehouseProblem(String file, String cause) {
  /** {@code FILE: cause}: one line of {@code benchlake verify}, and the start of an error's line. */
  public String line() {
    return file + ": " + cause;
  }
}
