package dev.benchlake.warehouse.kernel;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.WarehouseFormat;
import dev.benchlake.warehouse.WarehouseSchema;
import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.DamagedWarehouseException;
import dev.benchlake.warehouse.check.DataFilesCheck;
import dev.benchlake.warehouse.check.DataFilesCheck.NamedFile;
import dev.benchlake.warehouse.check.DeltaLogCheck;
import dev.benchlake.warehouse.check.LostTableCheck;
import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.fs.Storage;
import io.delta.kernel.Scan;
import io.delta.kernel.Snapshot;
import io.delta.kernel.data.ColumnVector;
import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.exceptions.TableNotFoundException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Literal;
import io.delta.kernel.expressions.Or;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.internal.InternalScanFileUtils;
import io.delta.kernel.internal.SnapshotImpl;
import io.delta.kernel.internal.data.ScanStateRow;
import io.delta.kernel.internal.util.Utils;
import io.delta.kernel.utils.CloseableIterator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;

/**
 * The committed-runs view of {@link dev.benchlake.warehouse.Warehouse}, read with Delta Kernel
 * instead of a Spark session: for the small tables (runs, step_metrics, rejects, ingest_files of
 * a few hundred runs), where starting Spark costs seconds and the read milliseconds.
 *
 * <p>Same semantics as {@code Warehouse}: the format is checked first ({@link WarehouseFormat}),
 * {@code runs} is the commit point (rows of other tables count only when their run is there), a
 * table not written yet reads as empty, and columns an older format lacks read as null
 * ({@code withCurrentColumns}). Rows come out as Spark {@link Row}s in {@link WarehouseSchema}'s
 * column order with Spark's Java types (java.sql.Timestamp, Scala maps and sequences), so that
 * the commands render them with the same code as rows from Spark; building them needs Spark's
 * type classes only, not a session.
 */
public final class KernelWarehouse {
  private final String root;
  /** As {@code Warehouse.location()}: a local folder as a file: URI, so Kernel never resolves it on fs.defaultFS. */
  private final String location;
  private final Engine engine;
  /**
   * Each table's snapshot, taken once: a command reads {@code runs} two or three times (exists?,
   * then its rows, then the selection), and each fresh snapshot lists and replays the log again.
   * One snapshot per command also means every read of a table sees the same commit.
   */
  private final Map<Table, Loaded> snapshots = new EnumMap<>(Table.class);
  /** The runs table's rows at its snapshot, once read ({@link #runs}). */
  private List<Row> runs;
  private final Storage storage;

  private KernelWarehouse(String root, Configuration conf) {
    this.root = root.endsWith("/") && root.length() > 1 ? root.substring(0, root.length() - 1) : root;
    this.location = Storage.qualified(Storage.location(this.root));
    this.engine = new SharedConfEngine(conf);
    this.storage = Storage.on(conf);
  }

  /** A table's latest version as loaded: its snapshot (empty: no commit yet) and the data files it names. */
  private record Loaded(Optional<Snapshot> snapshot, List<io.delta.kernel.utils.FileStatus> files) {
    List<NamedFile> named() {
      return files.stream().map(f -> new NamedFile(f.getPath(), f.getSize())).toList();
    }
  }

  /**
   * The warehouse at {@code root}, after checking its format.
   *
   * @throws BadInputException when it was written by a newer benchlake
   */
  public static KernelWarehouse at(String root, Configuration conf) {
    KernelWarehouse warehouse = new KernelWarehouse(root, conf);
    WarehouseFormat.requireReadable(warehouse.root, conf);
    return warehouse;
  }

  /**
   * The warehouse at {@code root} whatever its format file says: for {@code benchlake verify},
   * which reports a damaged format file among the rest of what is wrong instead of stopping at it.
   */
  public static KernelWarehouse ignoringFormat(String root, Configuration conf) {
    return new KernelWarehouse(root, conf);
  }

  /**
   * The warehouse at {@code root} on the default Hadoop configuration: local folders, {@code file:}
   * and {@code hdfs://} URIs (the HDFS client is on the class path with Spark's Hadoop), and any
   * other file system that needs no settings. One that needs settings (s3a credentials) is given
   * them with {@code --conf spark.hadoop.*}, which sends the command to Spark.
   */
  public static KernelWarehouse at(String root) {
    return at(root, new Configuration());
  }

  /**
   * The small tables of a warehouse a Spark command opened ({@link Warehouse#at}, which checked
   * its format), read on the driver on the session's Hadoop configuration (so {@code --conf
   * spark.hadoop.*} settings apply): a few hundred runs read in milliseconds, where a Delta read on
   * Spark rebuilds the table's snapshot in four Spark jobs first.
   */
  public static KernelWarehouse of(Warehouse warehouse) {
    return new KernelWarehouse(warehouse.root(), warehouse.spark().sparkContext().hadoopConfiguration());
  }

  public String root() {
    return root;
  }

  /**
   * The Delta version of the runs table (the commit point: with the path it pins exactly what a
   * report read), from its log alone.
   *
   * @throws BadInputException when no runs have been committed here
   */
  public long version() {
    return snapshot(Table.RUNS).orElseThrow(this::noWarehouse).getVersion();
  }

  /**
   * Fails as {@code Warehouse.requireExisting} does when no runs have been committed here.
   *
   * @throws BadInputException naming the folder
   */
  public KernelWarehouse requireExisting() {
    if (snapshot(Table.RUNS).isEmpty()) {
      throw noWarehouse();
    }
    return this;
  }

  /**
   * Fails unless every table passes {@code benchlake verify}'s checks ({@link #check}): what the
   * commands that start Spark (and those that write) check first, before Spark starts; the Kernel
   * readers check the tables they read as they read them.
   *
   * @throws DamagedWarehouseException naming the first damaged file
   */
  public KernelWarehouse requireWhole() {
    for (Table table : Table.values()) {
      snapshot(table);
    }
    return this;
  }

  /**
   * Everything wrong with one table ({@code benchlake verify}): each of its log's files
   * ({@link DeltaLogCheck}), whether Delta can load its latest version, and then either each data
   * file that version names ({@link DataFilesCheck}) and Delta's checksum of that version against
   * those files, or, when Delta finds no commit, whether the warehouse shows the table had some
   * ({@link LostTableCheck}). With {@code deep}, also every byte of every data file the version
   * names ({@link DataFilesCheck#bytesProblem}).
   */
  public TableCheck check(Table table, boolean deep) throws IOException {
    Inspection found = inspect(table);
    List<WarehouseProblem> problems = new ArrayList<>(found.problems());
    if (found.loaded() == null) {
      if (problems.isEmpty()) {
        problems.add(new WarehouseProblem(DeltaLogCheck.logOf(folder(table)).toString(),
            "Delta cannot read the table (" + found.loadFailure().getMessage() + ")"));
      }
      return new TableCheck(table, -1, 0, 0, problems);
    }
    if (found.loaded().snapshot().isEmpty()) {
      return new TableCheck(table, -1, 0, 0, problems);
    }
    List<NamedFile> files = found.loaded().named();
    if (deep) {
      java.util.Set<String> named = new java.util.HashSet<>();
      problems.forEach(p -> named.add(p.file()));
      for (NamedFile file : files) {
        // A file said missing or of another size already is not read again.
        if (!named.contains(DataFilesCheck.shown(new Path(file.path())).toString())) {
          DataFilesCheck.bytesProblem(storage, new Path(file.path())).ifPresent(problems::add);
        }
      }
    }
    return new TableCheck(table, found.loaded().snapshot().get().getVersion(), files.size(),
        files.stream().mapToLong(NamedFile::bytes).sum(), problems);
  }

  /**
   * What a look at one table found: its latest version as Delta Kernel loaded it (null when it could
   * not: {@code loadFailure} says why), and every problem of {@link #check}'s but the data files' bytes.
   */
  private record Inspection(Loaded loaded, RuntimeException loadFailure, List<WarehouseProblem> problems) {}

  private Inspection inspect(Table table) throws IOException {
    Path folder = folder(table);
    Path log = DeltaLogCheck.logOf(folder);
    List<WarehouseProblem> problems = new ArrayList<>(DeltaLogCheck.problems(storage, log));
    Loaded loaded;
    try {
      loaded = load(table);
    } catch (RuntimeException e) {
      return new Inspection(null, e, problems);
    }
    if (loaded.snapshot().isEmpty()) {
      List<WarehouseProblem> lost = LostTableCheck.problems(storage, table, folder, rowsCounted(table));
      if (!lost.isEmpty()) {
        // The runs may have been read after a concurrent first ingest created this table (it commits
        // a run's rows before the run): a second look then finds its commit.
        Loaded again = load(table);
        if (again.snapshot().isPresent()) {
          loaded = again;
          lost = List.of();
        }
      }
      problems.addAll(lost);
      if (loaded.snapshot().isEmpty()) {
        return new Inspection(loaded, null, problems);
      }
    }
    List<NamedFile> files = loaded.named();
    // Delta's checksum of the version disagrees with a log that lost a file's actions: said once, by the log's file.
    boolean logWhole = problems.isEmpty();
    problems.addAll(DataFilesCheck.problems(storage, folder, files));
    if (logWhole) {
      DeltaLogCheck.checksumProblem(storage, log, loaded.snapshot().get().getVersion(), files).ifPresent(problems::add);
    }
    return new Inspection(loaded, null, problems);
  }

  /**
   * How many rows the committed runs count in {@code table} ({@link LostTableCheck#countedBy}); empty
   * for a table they do not count, or when {@code runs} cannot be read (its own check says why).
   */
  private OptionalLong rowsCounted(Table table) {
    Optional<String> column = LostTableCheck.countedBy(table);
    if (column.isEmpty()) {
      return OptionalLong.empty();
    }
    try {
      long[] sum = {0};
      scanColumn(Table.RUNS, column.get(), null, (values, i) -> {
        sum[0] += values.getLong(i);
        return true;
      });
      return OptionalLong.of(sum[0]);
    } catch (RuntimeException e) {
      return OptionalLong.empty();
    }
  }

  /**
   * What {@link #check} found in one table.
   *
   * @param version its latest version, -1 when it has none or it cannot be loaded
   * @param dataFiles the data files that version names
   * @param dataBytes their size as the log recorded it
   */
  public record TableCheck(Table table, long version, int dataFiles, long dataBytes, List<WarehouseProblem> problems) {}

  private BadInputException noWarehouse() {
    return new BadInputException("no warehouse at " + root
        + " (no runs have been ingested there yet; run 'benchlake ingest --warehouse " + root + " PATH…' first)");
  }

  /**
   * Committed runs, unmodifiable. Read once: a command selects its runs from them and then builds
   * its report's scope from them (compare, trend), and every read of the same snapshot would list
   * and decode the table's files again for the same rows.
   */
  public List<Row> runs() {
    requireExisting();
    if (runs == null) {
      runs = List.copyOf(read(Table.RUNS));
    }
    return runs;
  }

  /** Rows of {@code table} whose run is among {@code selectedRuns} (as {@code Warehouse.committedOnly}). */
  public List<Row> committedOnly(Table table, List<Row> selectedRuns) {
    Set<String> ids = new HashSet<>();
    for (Row run : selectedRuns) {
      ids.add(run.getAs(WarehouseSchema.RUN_ID));
    }
    return rowsOf(table, ids);
  }

  /** Rows of {@code table} whose run is one of {@code runIds} (ids read from the runs table: committed runs). */
  public List<Row> rowsOf(Table table, Set<String> runIds) {
    List<Row> out = new ArrayList<>();
    for (Row row : read(table)) {
      if (runIds.contains(row.<String>getAs(WarehouseSchema.RUN_ID))) {
        out.add(row);
      }
    }
    return out;
  }

  /**
   * Whether {@code table} holds a row of one of {@code runIds}, of a committed run or not (an ingest
   * killed before its commit point leaves such rows). Kernel's data skipping on the files' run_id
   * statistics passes over every file that cannot hold one (all of them, for the new run ids of an
   * ingest), and only the run_id column of the others is read.
   */
  public boolean hasRowsOf(Table table, Set<String> runIds) {
    if (runIds.isEmpty()) {
      return false;
    }
    Predicate anyOf = null;
    for (String id : new TreeSet<>(runIds)) {
      Predicate one = new Predicate("=", new Column(WarehouseSchema.RUN_ID), Literal.ofString(id));
      anyOf = anyOf == null ? one : new Or(anyOf, one);
    }
    boolean[] found = {false};
    scanColumn(table, WarehouseSchema.RUN_ID, anyOf, (ids, i) -> {
      found[0] = runIds.contains(ids.getString(i));
      return !found[0];
    });
    return found[0];
  }

  /** Told each selected, non-null value of a column; returns whether to go on. */
  private interface ValueVisitor {
    boolean visit(ColumnVector values, int row);
  }

  /**
   * Each selected, non-null value of one column of {@code table} (nothing when it has no commit),
   * read alone; {@code filter} (or null) lets Kernel skip the files whose statistics rule it out.
   */
  private void scanColumn(Table table, String column, Predicate filter, ValueVisitor visitor) {
    Optional<Snapshot> snapshot = snapshot(table);
    if (snapshot.isEmpty()) {
      return;
    }
    io.delta.kernel.types.StructType readSchema = new io.delta.kernel.types.StructType()
        .add(snapshot.get().getSchema().get(column));
    io.delta.kernel.ScanBuilder builder = snapshot.get().getScanBuilder().withReadSchema(readSchema);
    Scan scan = (filter == null ? builder : builder.withFilter(filter)).build();
    io.delta.kernel.data.Row scanState = scan.getScanState(engine);
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<io.delta.kernel.data.Row> fileRows = files.next().getRows()) {
          while (fileRows.hasNext()) {
            if (!visitFile(scanState, fileRows.next(), visitor)) {
              return;
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path(table), e);
    }
  }

  /** One data file's values of the column read; false when the visitor stopped. */
  private boolean visitFile(io.delta.kernel.data.Row scanState, io.delta.kernel.data.Row scanFile, ValueVisitor visitor) {
    try (CloseableIterator<FilteredColumnarBatch> batches = batchesOf(scanState, scanFile)) {
      while (batches.hasNext()) {
        FilteredColumnarBatch batch = batches.next();
        ColumnVector values = batch.getData().getColumnVector(0);
        Optional<ColumnVector> selection = batch.getSelectionVector();
        for (int i = 0; i < batch.getData().getSize(); i++) {
          boolean selected = selection.isEmpty() || !selection.get().isNullAt(i) && selection.get().getBoolean(i);
          if (selected && !values.isNullAt(i) && !visitor.visit(values, i)) {
            return false;
          }
        }
      }
      return true;
    } catch (IOException | RuntimeException e) {
      throw readFailure(scanFile, e);
    }
  }

  /**
   * What a failed read (a Spark job's) met, when it names a data file that a table of this warehouse
   * names in its log and whose bytes are damaged ({@link DataFilesCheck#bytesProblem}): that file,
   * as bad input pointing at {@code verify --deep}. Null for any other failure (a file no log names
   * is a write's own, and its failure is the write's).
   */
  public DamagedWarehouseException damagedDataFileBehind(Throwable failure) {
    String tables = location + "/";
    for (Path named : DataFilesCheck.namedIn(failure)) {
      String file = Storage.qualified(DataFilesCheck.shown(named));
      if (!file.startsWith(tables) || named.getParent() == null) {
        continue;
      }
      for (Table table : Table.values()) {
        if (!file.equals(path(table) + "/" + named.getName())) {
          continue;
        }
        boolean inLog;
        try {
          inLog = load(table).files().stream().anyMatch(f -> Storage.qualified(new Path(f.getPath())).equals(file));
        } catch (RuntimeException notLoaded) {
          inLog = false;
        }
        Optional<WarehouseProblem> damage = inLog ? DataFilesCheck.bytesProblem(storage, named) : Optional.empty();
        if (damage.isPresent()) {
          return DamagedWarehouseException.ofDataFile(root, damage.get(), failure);
        }
      }
    }
    return null;
  }

  /** Every row of {@code table} (empty when it has no commit yet), in this build's schema. */
  List<Row> read(Table table) {
    Optional<Snapshot> snapshot = snapshot(table);
    if (snapshot.isEmpty()) {
      return List.of();
    }
    RowConverter converter = new RowConverter(table.schema(), snapshot.get().getSchema());
    Scan scan = snapshot.get().getScanBuilder().withReadSchema(converter.readSchema()).build();
    io.delta.kernel.data.Row scanState = scan.getScanState(engine);
    List<Row> rows = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> files = scan.getScanFiles(engine)) {
      while (files.hasNext()) {
        try (CloseableIterator<io.delta.kernel.data.Row> fileRows = files.next().getRows()) {
          while (fileRows.hasNext()) {
            readFile(scanState, fileRows.next(), converter, rows);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path(table), e);
    }
    return rows;
  }

  /**
   * The committed data files of {@code table}'s latest version and its schema (Delta's JSON), when a
   * plain Parquet read of those files is exactly the table: Delta reader version 1 (so no deletion
   * vectors, no column mapping) and no partition columns, as every table benchlake writes. Empty
   * when the table has no commit yet or is not such a table (read it with Delta then).
   */
  public Optional<TableFiles> plainParquetFiles(Table table) {
    Optional<Snapshot> snapshot = snapshot(table);
    if (snapshot.isEmpty() || !(snapshot.get() instanceof SnapshotImpl impl)
        || impl.getProtocol().getMinReaderVersion() != 1 || !snapshot.get().getPartitionColumnNames().isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new TableFiles(path(table), snapshot.get().getSchema().toJson(), snapshots.get(table).files()));
  }

  /** The data files a table's version names (Delta's add actions), as Kernel lists them to read. */
  private List<io.delta.kernel.utils.FileStatus> namedFiles(Table table, Snapshot snapshot) {
    List<io.delta.kernel.utils.FileStatus> files = new ArrayList<>();
    try (CloseableIterator<FilteredColumnarBatch> batches = snapshot.getScanBuilder().build().getScanFiles(engine)) {
      while (batches.hasNext()) {
        try (CloseableIterator<io.delta.kernel.data.Row> rows = batches.next().getRows()) {
          while (rows.hasNext()) {
            files.add(InternalScanFileUtils.getAddFileStatus(rows.next()));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the files of " + path(table), e);
    }
    return files;
  }

  /** The bytes of {@code table}'s committed data files, when {@link #plainParquetFiles} lists them. */
  public OptionalLong committedBytes(Table table) {
    return plainParquetFiles(table)
        .map(t -> OptionalLong.of(t.files().stream().mapToLong(io.delta.kernel.utils.FileStatus::getSize).sum()))
        .orElse(OptionalLong.empty());
  }

  /**
   * @param path the table's folder (qualified)
   * @param schemaJson the table's schema as its Delta log has it (Spark's JSON form)
   * @param files its committed data files (full paths)
   */
  public record TableFiles(String path, String schemaJson, List<io.delta.kernel.utils.FileStatus> files) {}

  /** One data file's rows. */
  private void readFile(io.delta.kernel.data.Row scanState, io.delta.kernel.data.Row scanFile, RowConverter converter,
      List<Row> rows) {
    try (CloseableIterator<FilteredColumnarBatch> batches = batchesOf(scanState, scanFile)) {
      while (batches.hasNext()) {
        FilteredColumnarBatch batch = batches.next();
        ColumnarBatch data = batch.getData();
        Optional<ColumnVector> selection = batch.getSelectionVector();
        for (int i = 0; i < data.getSize(); i++) {
          if (selection.isEmpty() || !selection.get().isNullAt(i) && selection.get().getBoolean(i)) {
            rows.add(converter.row(data, i));
          }
        }
      }
    } catch (IOException | RuntimeException e) {
      throw readFailure(scanFile, e);
    }
  }

  /**
   * A read of a data file that failed: the file named as damaged (exit 2, pointing at {@code verify
   * --deep}) when its bytes are ({@link DataFilesCheck#bytesProblem}: a checksum error, or not the
   * Parquet it was), else the failure as it is (a file system that went away).
   */
  private RuntimeException readFailure(io.delta.kernel.data.Row scanFile, Exception e) {
    if (e instanceof BadInputException bad) {
      return bad;
    }
    Path file = new Path(InternalScanFileUtils.getAddFileStatus(scanFile).getPath());
    Optional<WarehouseProblem> damage;
    try {
      damage = DataFilesCheck.bytesProblem(storage, file);
    } catch (RuntimeException notChecked) {
      e.addSuppressed(notChecked);
      damage = Optional.empty();
    }
    if (damage.isPresent()) {
      return DamagedWarehouseException.ofDataFile(root, damage.get(), e);
    }
    return e instanceof RuntimeException r ? r : new UncheckedIOException("cannot read " + file, (IOException) e);
  }

  /** One data file's batches, deletion vectors and column mapping applied by {@link Scan#transformPhysicalData}. */
  private CloseableIterator<FilteredColumnarBatch> batchesOf(io.delta.kernel.data.Row scanState,
      io.delta.kernel.data.Row scanFile) throws IOException {
    CloseableIterator<ColumnarBatch> physical = engine.getParquetHandler().readParquetFiles(
        Utils.singletonCloseableIterator(InternalScanFileUtils.getAddFileStatus(scanFile)),
        ScanStateRow.getPhysicalDataReadSchema(engine, scanState), Optional.empty());
    return Scan.transformPhysicalData(engine, scanState, scanFile, physical);
  }

  /**
   * The table's latest version, loaded once, after checking that it can be read whole: its log
   * loads and every data file it names is there with its recorded size (one listing of the
   * table's folder).
   *
   * @throws DamagedWarehouseException naming the first damaged file
   */
  private Optional<Snapshot> snapshot(Table table) {
    Loaded loaded = snapshots.get(table);
    if (loaded == null) {
      Inspection found;
      try {
        found = inspect(table);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + folder(table), e);
      }
      List<WarehouseProblem> problems = found.problems();
      if (!problems.isEmpty()) {
        throw new DamagedWarehouseException(root, problems.get(0), problems.size() - 1, found.loadFailure());
      }
      if (found.loaded() == null) {
        // Kernel's own error, where the log's files look whole (a file system that went away).
        throw found.loadFailure();
      }
      loaded = found.loaded();
      snapshots.put(table, loaded);
    }
    return loaded.snapshot();
  }

  /** The latest version and its data files, as Delta Kernel reads them (its own errors, unexplained). */
  private Loaded load(Table table) {
    try {
      Snapshot snapshot = io.delta.kernel.Table.forPath(engine, path(table)).getLatestSnapshot(engine);
      return new Loaded(Optional.of(snapshot), namedFiles(table, snapshot));
    } catch (TableNotFoundException e) {
      return new Loaded(Optional.empty(), List.of());
    }
  }

  /** The table's folder as benchlake shows and lists it (a local one as its plain path). */
  private Path folder(Table table) {
    return new Path(Storage.location(root), table.dirName());
  }

  private String path(Table table) {
    return location + "/" + table.dirName();
  }
}
