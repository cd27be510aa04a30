package dev.benchlake.ingest.format;

import dev.benchlake.warehouse.fs.Storage;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** Local files as the locations formats plan ({@link Storage#location}), for tests that plan without Spark. */
final class LocalPaths {
  static final Storage LOCAL = Storage.on(new Configuration());

  private LocalPaths() {}

  static List<org.apache.hadoop.fs.Path> of(Path... paths) {
    return of(Arrays.asList(paths));
  }

  static List<org.apache.hadoop.fs.Path> of(List<Path> paths) {
    return paths.stream().map(Storage::location).toList();
  }

  /** A planned location back as a local path. */
  static Path local(org.apache.hadoop.fs.Path location) {
    return Path.of(location.toUri().getPath());
  }
}
