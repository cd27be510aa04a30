package dev.benchlake.warehouse.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Spark's first write task always opens a file, even with no rows (so that an empty output has its
 * schema), and Delta names no file without rows: such a file stays in the table's folder, named by
 * no log, after a refused, metrics-only or empty ingest, and after a DELETE that removed every row
 * of the files it rewrote (a re-run's clean-up, a {@code --replace}). {@link #removeNew} removes
 * those a write made: files with no rows are never committed by anyone, so removing one is always
 * safe.
 */
final class EmptyDataFiles {
  private static final Logger LOG = LoggerFactory.getLogger(EmptyDataFiles.class);
  private static final String FIRST_PARTITION = "part-00000-";

  private final Configuration conf;
  private final Path table;
  private final Set<String> before;

  private EmptyDataFiles(Configuration conf, Path table) {
    this.conf = conf;
    this.table = table;
    this.before = firstPartitionFiles();
  }

  /** The table's first-partition files now, before a write. */
  static EmptyDataFiles before(SparkSession spark, Path table) {
    return new EmptyDataFiles(spark.sparkContext().hadoopConfiguration(), table);
  }

  /**
   * Removes the first-partition files that appeared since {@link #before} and hold no row.
   *
   * @param named files (names) the write's commit adds: not read, they have rows
   */
  void removeNew(Set<String> named) {
    for (String name : firstPartitionFiles()) {
      if (before.contains(name) || named.contains(name) || !name.endsWith(".parquet")) {
        continue;
      }
      Path file = new Path(table, name);
      try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(file, conf))) {
        if (reader.getRecordCount() != 0) {
          continue;
        }
      } catch (IOException | RuntimeException e) {
        // Another writer's file, still being written (Parquet says "not a Parquet file" while it
        // has no footer yet, with a RuntimeException): not ours to judge.
        continue;
      }
      try {
        file.getFileSystem(conf).delete(file, false);
      } catch (IOException e) {
        LOG.warn("cannot remove the empty data file {}: {}", file, e.getMessage());
      }
    }
  }

  /** The names of the table's top-level {@code part-00000-*} data files. */
  private Set<String> firstPartitionFiles() {
    Set<String> names = new HashSet<>();
    try {
      FileSystem fs = table.getFileSystem(conf);
      if (fs.exists(table)) {
        for (org.apache.hadoop.fs.FileStatus f : fs.listStatus(table, p -> p.getName().startsWith(FIRST_PARTITION))) {
          names.add(f.getPath().getName());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list " + table, e);
    }
    return names;
  }
}
