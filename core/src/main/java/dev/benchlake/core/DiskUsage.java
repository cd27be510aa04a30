package dev.benchlake.core;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * What a command wrote, in bytes a person reads: a run's files ({@code tasks.csv 201 MB}) and a study's whole
 * folder. A run's tasks file grows by megabytes a minute, so every command that writes one says how much.
 */
public final class DiskUsage {
  private DiskUsage() {}

  /** The bytes of every regular file under {@code root} (a file: its own), without following links. */
  public static long bytes(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      long total = 0;
      for (Path p : (Iterable<Path>) walk::iterator) {
        BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
        total += a.isRegularFile() ? a.size() : 0;
      }
      return total;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code 201 MB}, {@code 3.4 kB}, {@code 512 B}: decimal units, three significant figures at most. */
  public static String human(long bytes) {
    String[] units = {"B", "kB", "MB", "GB", "TB"};
    double value = bytes;
    int unit = 0;
    while (value >= 999.5 && unit < units.length - 1) {
      value /= 1000;
      unit++;
    }
    String digits = unit == 0 || value >= 99.95 ? String.format(Locale.ROOT, "%.0f", value)
        : value >= 9.995 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    return digits.replaceAll("\\.0+$", "").replaceAll("(\\.\\d*?)0+$", "$1") + " " + units[unit];
  }

  /** {@code tasks.csv 201 MB, manifest.json 3.4 kB}: each file directly in {@code dir}, the largest first. */
  public static String files(Path dir) {
    List<String> parts = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      // Each file's size read once, then sorted: not again at every comparison.
      files.filter(Files::isRegularFile)
          .map(p -> Map.entry(p.getFileName().toString(), bytes(p)))
          .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
          .forEach(e -> parts.add(e.getKey() + " " + human(e.getValue())));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return String.join(", ", parts);
  }
}
