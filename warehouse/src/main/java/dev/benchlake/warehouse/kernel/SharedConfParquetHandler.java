package dev.benchlake.warehouse.kernel;

import io.delta.kernel.data.ColumnarBatch;
import io.delta.kernel.data.FilteredColumnarBatch;
import io.delta.kernel.defaults.internal.parquet.ParquetFileReader.BatchReadSupport;
import io.delta.kernel.engine.ParquetHandler;
import io.delta.kernel.exceptions.KernelEngineException;
import io.delta.kernel.expressions.Column;
import io.delta.kernel.expressions.Predicate;
import io.delta.kernel.types.StructField;
import io.delta.kernel.types.StructType;
import io.delta.kernel.utils.CloseableIterator;
import io.delta.kernel.utils.DataFileStatus;
import io.delta.kernel.utils.FileStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Kernel's Parquet reading on ONE already-loaded Hadoop {@link Configuration}.
 *
 * <p>Kernel 4.0.0's default reader hands parquet-hadoop a non-Hadoop input file, so parquet builds
 * a fresh {@code Configuration} per data file and re-parses core-default.xml each time: a third of
 * {@code benchlake runs}' time on a warehouse of one small file per run (JFR). Here each file is a
 * {@link HadoopInputFile} on the shared configuration, read into columnar batches by Kernel's own
 * {@link BatchReadSupport}, with the same batching and row-index handling as Kernel's reader.
 * No predicate push-down (the small tables are read whole). Writing is delegated.
 */
final class SharedConfParquetHandler implements ParquetHandler {
  /** Kernel's key and default for the rows per batch. */
  private static final String BATCH_SIZE_KEY = "delta.kernel.default.parquet.reader.batch-size";
  private static final int DEFAULT_BATCH_SIZE = 1024;

  private final Configuration conf;
  private final ParquetHandler writer;
  private final int batchSize;

  SharedConfParquetHandler(Configuration conf, ParquetHandler writer) {
    this.conf = conf;
    this.writer = writer;
    this.batchSize = conf.getInt(BATCH_SIZE_KEY, DEFAULT_BATCH_SIZE);
  }

  @Override
  public CloseableIterator<ColumnarBatch> readParquetFiles(CloseableIterator<FileStatus> files, StructType schema,
      Optional<Predicate> predicate) {
    boolean rowIndex = schema.indexOf(StructField.METADATA_ROW_INDEX_COLUMN_NAME) >= 0;
    return new CloseableIterator<>() {
      private FileBatches current;

      @Override
      public boolean hasNext() {
        try {
          while (current == null || !current.hasNext()) {
            if (current != null) {
              current.close();
              current = null;
            }
            if (!files.hasNext()) {
              return false;
            }
            current = new FileBatches(files.next(), schema, rowIndex);
          }
          return true;
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }

      @Override
      public ColumnarBatch next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return current.next();
      }

      @Override
      public void close() throws IOException {
        try (files) {
          if (current != null) {
            current.close();
          }
        }
      }
    };
  }

  /** The batches of one file, as Kernel's ParquetFileReader cuts them. */
  private final class FileBatches {
    private final FileStatus file;
    private final boolean rowIndex;
    private final BatchReadSupport support;
    private final ParquetReader<Object> reader;
    private boolean pending;

    FileBatches(FileStatus file, StructType schema, boolean rowIndex) {
      this.file = file;
      this.rowIndex = rowIndex;
      this.support = new BatchReadSupport(batchSize, schema);
      org.apache.hadoop.fs.FileStatus status = new org.apache.hadoop.fs.FileStatus(
          file.getSize(), false, 1, 0, file.getModificationTime(), new Path(file.getPath()));
      try {
        reader = new ParquetReader.Builder<Object>(HadoopInputFile.fromStatus(status, conf)) {
          @Override
          protected ReadSupport<Object> getReadSupport() {
            return support;
          }
        }.useRecordFilter(false).useStatsFilter(false).useBloomFilter(false).useDictionaryFilter(false)
            .useColumnIndexFilter(false).build();
      } catch (IOException e) {
        throw new KernelEngineException("Error reading Parquet file: " + file.getPath(), e);
      }
    }

    boolean hasNext() {
      if (!pending) {
        try {
          pending = reader.read() != null;
        } catch (IOException e) {
          throw new KernelEngineException("Error reading Parquet file: " + file.getPath(), e);
        }
      }
      return pending;
    }

    ColumnarBatch next() {
      int rows = 0;
      do {
        pending = false;
        support.finalizeCurrentRow(rowIndex ? reader.getCurrentRowIndex() : -1);
        rows++;
      } while (rows < batchSize && hasNext());
      return support.getDataAsColumnarBatch(rows);
    }

    void close() throws IOException {
      reader.close();
    }
  }

  @Override
  public CloseableIterator<DataFileStatus> writeParquetFiles(String directory,
      CloseableIterator<FilteredColumnarBatch> data, List<Column> statsColumns) throws IOException {
    return writer.writeParquetFiles(directory, data, statsColumns);
  }

  @Override
  public void writeParquetFileAtomically(String filePath, CloseableIterator<FilteredColumnarBatch> data)
      throws IOException {
    writer.writeParquetFileAtomically(filePath, data);
  }
}
