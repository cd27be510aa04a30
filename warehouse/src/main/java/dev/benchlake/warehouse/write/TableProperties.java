package dev.benchlake.warehouse.write;

import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.jdk.javaapi.CollectionConverters;

/**
 * {@link Table#properties()} on a table an earlier build created without them. A new table is
 * created with them; an existing one gets them with one {@code ALTER TABLE … SET TBLPROPERTIES}, a
 * commit that changes the table's metadata only: no data file is written or rewritten, and files
 * written before keep the statistics they were written with. {@code upgrade} does it (format 4's
 * statistics of tasks), and so does ingest before it writes into such a table: a property that keeps
 * raw text out of Delta's statistics (rejects) must not wait for an upgrade, and any Delta writer,
 * an older benchlake's included, honours it once it is there, so it is no new format.
 */
final class TableProperties {
  private static final Logger LOG = LoggerFactory.getLogger(TableProperties.class);

  private TableProperties() {}

  /** The properties of {@code table} that the transaction's table lacks or holds with another value, by name. */
  static SortedMap<String, String> missing(Table table, OptimisticTransaction txn) {
    SortedMap<String, String> missing = new TreeMap<>();
    if (table.properties().isEmpty() || txn.readVersion() < 0) {
      return missing;
    }
    Map<String, String> current = CollectionConverters.asJava(txn.metadata().configuration());
    table.properties().forEach((k, v) -> {
      if (!v.equals(current.get(k))) {
        missing.put(k, v);
      }
    });
    return missing;
  }

  /** What setting {@code missing} on {@code table} changes, as {@code upgrade} and ingest's log say it. */
  static String describe(Table table, SortedMap<String, String> missing) {
    return table.dirName() + ": set " + missing.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
        .collect(Collectors.joining(", ")) + " (per-file statistics of new files on these columns only)";
  }

  /** Sets {@code missing} on the table at {@code path} with one metadata-only commit, retried when a concurrent commit wins the race. */
  static void set(Warehouse warehouse, Table table, String path, SortedMap<String, String> missing) {
    String properties = missing.entrySet().stream()
        .map(e -> "'" + e.getKey() + "' = '" + e.getValue() + "'").collect(Collectors.joining(", "));
    String sql = "ALTER TABLE delta.`" + qualified(warehouse, path).replace("`", "``") + "` SET TBLPROPERTIES (" + properties + ")";
    WarehouseWriter.retrying("set the properties of " + table.dirName(), () -> warehouse.spark().sql(sql));
  }

  /** Before a write into the existing table of {@code txn}: sets what it lacks, and says so. Whether it set anything. */
  static boolean ensure(Warehouse warehouse, Table table, String path, OptimisticTransaction txn) {
    SortedMap<String, String> missing = missing(table, txn);
    if (missing.isEmpty()) {
      return false;
    }
    LOG.info("{}", describe(table, missing));
    set(warehouse, table, path, missing);
    return true;
  }

  /** SQL's delta.`path` wants an absolute path (a relative one is taken for a table name). */
  static String qualified(Warehouse warehouse, String path) {
    org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(path);
    try {
      return p.getFileSystem(warehouse.spark().sparkContext().hadoopConfiguration()).makeQualified(p).toString();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
