package dev.benchlake.warehouse.spark;

import dev.benchlake.warehouse.WarehouseSchema.Table;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse.TableFiles;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.execution.datasources.FileStatusCache;
import org.apache.spark.sql.execution.datasources.HadoopFsRelation;
import org.apache.spark.sql.execution.datasources.InMemoryFileIndex;
import org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.collection.immutable.Map$;
import scala.jdk.javaapi.CollectionConverters;

/**
 * A warehouse table read on Spark as the Parquet files its Delta log commits, listed by Delta
 * Kernel on the driver ({@link KernelWarehouse#plainParquetFiles}): the same rows as Delta's reader,
 * without the Spark jobs in which Delta rebuilds the table's snapshot before each first read
 * (four for a table of a few files: most of a small compare). Spark lists nothing either: the
 * file index is given the files, so files in the folder that no commit names (an ingest's staged
 * or refused output) are never read.
 */
public final class ListedParquet {
  private ListedParquet() {}

  /**
   * {@code table} of {@code tables} (the command's {@link KernelWarehouse}: the files of the commit it
   * reads) on {@code spark}, or empty when it has no commit or needs Delta's reader (see
   * {@link KernelWarehouse#plainParquetFiles}).
   */
  public static Optional<Dataset<Row>> read(SparkSession spark, KernelWarehouse tables, Table table) {
    return tables.plainParquetFiles(table).map(files -> read(spark, files));
  }

  static Dataset<Row> read(SparkSession spark, TableFiles table) {
    StructType schema = ((StructType) DataType.fromJson(table.schemaJson())).asNullable();
    if (table.files().isEmpty()) {
      return spark.createDataFrame(List.of(), schema);
    }
    Path root = new Path(table.path());
    FileStatus[] files = table.files().stream()
        .map(f -> new FileStatus(f.getSize(), false, 1, f.getSize(), f.getModificationTime(), new Path(f.getPath())))
        .toArray(FileStatus[]::new);
    InMemoryFileIndex index = new InMemoryFileIndex(spark, CollectionConverters.asScala(List.of(root)).toList(),
        Map$.MODULE$.empty(), Option.apply(schema), new Listed(root, files), Option.empty(), Option.empty());
    return spark.baseRelationToDataFrame(new HadoopFsRelation(index, new StructType(), schema, Option.empty(),
        new ParquetFileFormat(), Map$.MODULE$.empty(), spark));
  }

  /** The file index's listing of the table's folder: the committed files, and nothing else. */
  private static final class Listed extends FileStatusCache {
    private final Path root;
    private final FileStatus[] files;

    Listed(Path root, FileStatus[] files) {
      this.root = root;
      this.files = files;
    }

    @Override
    public Option<FileStatus[]> getLeafFiles(Path path) {
      return path.equals(root) ? Option.apply(files) : Option.empty();
    }

    @Override
    public void putLeafFiles(Path path, FileStatus[] leafFiles) {}

    @Override
    public void invalidateAll() {}
  }
}
