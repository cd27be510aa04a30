package dev.benchlake.warehouse;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.BenchlakeVersion;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.OptionalInt;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The format version of a warehouse: which tables and columns it holds. Every command reads it
 * before anything else ({@link Warehouse#at}); a warehouse newer than this build is refused
 * (exit 2, nothing written), an older one is read as is (columns it lacks read as null, "not
 * recorded") and written only after {@code benchlake upgrade}.
 *
 * <p>It is one small file, {@code DIR/_benchlake/format.json}, rather than a Delta table property
 * on each table: one value for the whole warehouse, read without a Spark job (the check costs
 * nothing, so every command can afford it first), and written last by an upgrade, after every
 * table has its new columns, so that a warehouse that says N always holds N's columns. Warehouses
 * of 0.1.0 have no such file: a warehouse with tables but no file is format 1.
 *
 * <ul>
 *   <li>1: benchlake 0.1.0: runs, tasks, step_metrics, rejects.
 *   <li>2: rejects.error_type and rejects.column, runs.server_start, the ingest_files table.
 *   <li>3: step_metrics' table health: health_before, health_after, tables_autovacuumed,
 *       tables_autoanalyzed, between_steps.
 *   <li>4: tasks collects Delta's per-file statistics of run_id and step only
 *       ({@code delta.dataSkippingStatsColumns}): no column changes, but a format 3 benchlake
 *       would create new tasks files with every column's statistics again, so it is a new format.
 * </ul>
 */
public final class WarehouseFormat {
  /** The format this build writes (and the newest it reads). */
  public static final int CURRENT = 4;
  /** The format of a warehouse without a format file: 0.1.0's. */
  public static final int FIRST = 1;
  static final String DIR = "_benchlake";
  static final String FILE = "format.json";
  private static final String VERSION_FIELD = "format_version";

  private WarehouseFormat() {}

  /** The warehouse's format, or empty when the folder holds no warehouse (yet). */
  public static OptionalInt read(Warehouse warehouse) {
    return read(warehouse.location(), hadoopConf(warehouse));
  }

  /** The format of the warehouse at {@code root} (no Spark session needed: see the Kernel reader). */
  public static OptionalInt read(String root, Configuration conf) {
    try {
      requireFolder(root, conf);
      Path file = file(root);
      FileSystem fs = Storage.on(conf).fs(file);
      if (fs.exists(file)) {
        try (InputStream in = fs.open(file)) {
          return OptionalInt.of(version(root, file, new String(in.readAllBytes(), StandardCharsets.UTF_8)));
        }
      }
      for (WarehouseSchema.Table table : WarehouseSchema.Table.values()) {
        if (hasLog(fs, new Path(new Path(Storage.location(root), table.dirName()), "_delta_log"))) {
          return OptionalInt.of(FIRST);
        }
      }
      return OptionalInt.empty();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the format of the warehouse at " + root, e);
    }
  }

  /**
   * The version a format file says.
   *
   * @throws DamagedWarehouseException when it is not a format file (cut short, overwritten)
   */
  private static int version(String root, Path file, String text) {
    JsonNode version;
    try {
      JsonNode node = Json.mapper().readTree(text);
      version = node == null ? null : node.get(VERSION_FIELD);
    } catch (JsonProcessingException e) {
      String where = e.getLocation() == null ? ""
          : " at line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr();
      throw new DamagedWarehouseException(root, new WarehouseProblem(file.toString(), "not a benchlake format file ("
          + e.getOriginalMessage() + where + "; it holds one line such as {\"" + VERSION_FIELD + "\": " + CURRENT
          + "})"), 0, e);
    }
    if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()) {
      throw new DamagedWarehouseException(root, new WarehouseProblem(file.toString(), "not a benchlake format file (no integer "
          + VERSION_FIELD + "; it holds one line such as {\"" + VERSION_FIELD + "\": " + CURRENT + "})"), 0, null);
    }
    // Newer than this build: requireReadable says so (a newer benchlake wrote it). Below 1: no benchlake did.
    if (version.intValue() < FIRST) {
      throw new DamagedWarehouseException(root, new WarehouseProblem(file.toString(), "not a benchlake format file ("
          + VERSION_FIELD + " " + version.intValue() + " is no format: they are numbered from " + FIRST + "; this benchlake "
          + "writes " + CURRENT + ")"), 0, null);
    }
    return version.intValue();
  }

  /**
   * Refuses a warehouse path that is a file: every command would otherwise take it for a folder
   * that holds no warehouse yet ({@code runs} advised ingesting into it, and {@code ingest} failed
   * on creating {@code _locks} in it).
   */
  private static void requireFolder(String root, Configuration conf) throws IOException {
    Path location = Storage.location(root);
    if (Storage.on(conf).isFile(location)) {
      throw new BadInputException(location + " is a file, not a warehouse folder: --warehouse takes the folder of a "
          + "warehouse, or a new or empty folder for the first ingest to create one in");
    }
  }

  /**
   * Whether a table's log holds a file: a table. An ingest's uncommitted (staged) write of a new
   * table makes the log's folder before any commit, and that is no table yet.
   */
  private static boolean hasLog(FileSystem fs, Path log) throws IOException {
    if (!fs.exists(log)) {
      return false;
    }
    for (org.apache.hadoop.fs.FileStatus entry : fs.listStatus(log)) {
      if (entry.isFile()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Refuses a warehouse newer than this build, before anything is read or written.
   *
   * @throws BadInputException one line naming the folder and both versions
   */
  public static void requireReadable(Warehouse warehouse) {
    requireReadable(warehouse.root(), hadoopConf(warehouse));
  }

  /** {@link #requireReadable(Warehouse)} without a Spark session. */
  public static void requireReadable(String root, Configuration conf) {
    OptionalInt version = read(root, conf);
    if (version.isPresent() && version.getAsInt() > CURRENT) {
      throw new BadInputException("the warehouse at " + root + " has format " + version.getAsInt()
          + ", newer than this benchlake (" + BenchlakeVersion.describe() + ") knows (up to " + CURRENT
          + "); use a newer benchlake");
    }
  }

  /**
   * Refuses to write to a warehouse of an older format (its tables lack columns this build
   * writes); an empty folder is fine: the first write creates a current warehouse.
   *
   * @throws BadInputException telling the user to run {@code benchlake upgrade}
   */
  public static void requireWritable(Warehouse warehouse) {
    requireWritable(warehouse.root(), hadoopConf(warehouse));
  }

  /** {@link #requireWritable(Warehouse)} without a Spark session (ingest checks it before Spark starts). */
  public static void requireWritable(String root, Configuration conf) {
    requireReadable(root, conf);
    OptionalInt version = read(root, conf);
    if (version.isPresent() && version.getAsInt() < CURRENT) {
      throw new BadInputException("the warehouse at " + root + " has format " + version.getAsInt()
          + " (an earlier benchlake's); this benchlake writes format " + CURRENT + ": run 'benchlake upgrade --warehouse "
          + root + "' first (it adds the new columns, keeps every run, and is quick)");
    }
  }

  /**
   * Writes the format file: to a new file, then renamed into place, so a reader sees the old
   * file, no file (= format 1, still readable), or the new one; never half a file.
   * Only the writers call it ({@code write/WarehouseUpgrade}).
   */
  public static void write(Warehouse warehouse, int version) {
    try {
      Path file = file(warehouse.location());
      FileSystem fs = warehouse.storage().fs(file);
      fs.mkdirs(file.getParent());
      Path partial = new Path(file.getParent(), "." + FILE + "." + UUID.randomUUID() + ".partial");
      String json = "{\"" + VERSION_FIELD + "\": " + version + ", \"written_by\": "
          + Json.mapper().writeValueAsString(BenchlakeVersion.describe()) + "}\n";
      try (OutputStream out = fs.create(partial, false)) {
        out.write(json.getBytes(StandardCharsets.UTF_8));
      }
      if (fs.rename(partial, file)) {
        return;
      }
      // Hadoop's rename does not replace an existing file on every file system (HDFS). Two first
      // ingests there (no locks off the local file system) both write the same version: keep the
      // first. Otherwise replace it; a reader may see no file for a moment, which reads as
      // format 1, still readable.
      if (read(warehouse).orElse(-1) == version) {
        fs.delete(partial, false);
        return;
      }
      if (!(fs.delete(file, false) && fs.rename(partial, file))) {
        throw new IOException("cannot rename " + partial + " to " + file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the format of the warehouse at " + warehouse.root(), e);
    }
  }

  /** Writes the current format into a folder that holds no warehouse yet (the first ingest, {@code write/WarehouseWriter}). */
  public static void initialiseIfEmpty(Warehouse warehouse) {
    if (read(warehouse).isEmpty()) {
      write(warehouse, CURRENT);
    }
  }

  private static Path file(String root) {
    return new Path(new Path(Storage.location(root), DIR), FILE);
  }

  private static Configuration hadoopConf(Warehouse warehouse) {
    return warehouse.spark().sparkContext().hadoopConfiguration();
  }
}
