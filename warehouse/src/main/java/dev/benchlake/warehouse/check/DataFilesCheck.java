package dev.benchlake.warehouse.check;

import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.fs.Storage;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.HadoopReadOptions;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.page.DataPage;
import org.apache.parquet.column.page.DataPageV1;
import org.apache.parquet.column.page.DataPageV2;
import org.apache.parquet.column.page.DictionaryPage;
import org.apache.parquet.column.page.PageReadStore;
import org.apache.parquet.column.page.PageReader;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * The data files a table's current version names (its Delta log's add actions, as Delta Kernel
 * lists them) against the folder: each must be there with the size the log recorded. One listing
 * of the table's folder, no file read: cheap enough for every command to run on the tables it
 * reads, and for {@code ingest} and {@code upgrade} on every table before they write (appending to
 * a table that lost a file would hide the loss under a new version).
 *
 * <p>A file of the right size whose bytes changed (overwritten, a bad disk) shows only when it is
 * read: {@link #bytesProblem} reads one whole, for {@code verify --deep} and for a read that failed
 * on it, which then names it instead of failing with the reader's "Checksum error".
 */
public final class DataFilesCheck {
  private DataFilesCheck() {}

  /** A data file as the log names it: its full path (a URI) and the size recorded. */
  public record NamedFile(String path, long bytes) {}

  /** Each named file that is missing or of another size, in the order given. */
  public static List<WarehouseProblem> problems(Storage storage, Path table, List<NamedFile> named) throws IOException {
    Map<String, Long> present = new HashMap<>();
    String folder = Storage.qualified(table);
    if (!named.isEmpty()) {
      for (FileStatus entry : storage.list(table)) {
        if (entry.isFile()) {
          present.put(entry.getPath().getName(), entry.getLen());
        }
      }
    }
    List<WarehouseProblem> problems = new ArrayList<>();
    for (NamedFile file : named) {
      Path path = new Path(file.path());
      Long bytes = path.getParent() != null && Storage.qualified(path.getParent()).equals(folder)
          ? present.get(path.getName())
          // In a sub-folder (a partitioned table; benchlake writes none): a look of its own.
          : storage.status(shown(path)).map(FileStatus::getLen).orElse(null);
      if (bytes == null) {
        problems.add(new WarehouseProblem(shown(path).toString(), "missing, yet the Delta log of " + table.getName()
            + " names it (" + file.bytes() + " bytes) as part of the table: deleted or moved away"));
      } else if (bytes != file.bytes()) {
        problems.add(new WarehouseProblem(shown(path).toString(), bytes + " bytes where the Delta log of "
            + table.getName() + " recorded " + file.bytes() + ": cut short or replaced"));
      }
    }
    return problems;
  }

  /**
   * Whether a data file's bytes are what was written ({@code benchlake verify --deep}, and a read that
   * failed on the file): read as Parquet, through Hadoop's checksum file beside it where there is one
   * ({@code .NAME.crc}, which Hadoop's local file system writes with every file): its footer, and
   * every page of every column chunk, decompressed, with the page checksums Parquet writes checked.
   * Empty when it reads whole, or is not there (which {@link #problems} says).
   *
   * @throws java.io.UncheckedIOException when the file system failed (a connection, not the bytes)
   */
  public static Optional<WarehouseProblem> bytesProblem(Storage storage, Path file) {
    Path location = new Path(Storage.qualified(file));
    Configuration conf = new Configuration(storage.conf());
    conf.setBoolean("parquet.page.verify-checksum.enabled", true);
    try (ParquetFileReader reader = new ParquetFileReader(HadoopInputFile.fromPath(location, conf),
        HadoopReadOptions.builder(conf, location).usePageChecksumVerification(true).build())) {
      List<ColumnDescriptor> columns = reader.getFooter().getFileMetaData().getSchema().getColumns();
      for (PageReadStore rowGroup = reader.readNextRowGroup(); rowGroup != null; rowGroup = reader.readNextRowGroup()) {
        for (ColumnDescriptor column : columns) {
          PageReader pages = rowGroup.getPageReader(column);
          DictionaryPage dictionary = pages.readDictionaryPage();
          if (dictionary != null) {
            dictionary.getBytes().toByteArray();
          }
          for (DataPage page = pages.readPage(); page != null; page = pages.readPage()) {
            page.accept(PAGE_BYTES);
          }
        }
      }
      return Optional.empty();
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
        if (c instanceof ChecksumException) {
          return Optional.of(new WarehouseProblem(shown(file).toString(), "its bytes do not match its checksum file ."
              + file.getName() + ".crc: changed or overwritten after it was written"));
        }
        if (c instanceof java.net.SocketException || c instanceof java.net.UnknownHostException
            || c instanceof java.io.InterruptedIOException) {
          throw new java.io.UncheckedIOException("cannot read " + shown(file),
              e instanceof IOException io ? io : new IOException(e));
        }
      }
      // Parquet's messages name the file again ("file:/…parquet is not a Parquet file"): it is this one.
      String why = e.getMessage() == null ? e.getClass().getSimpleName()
          : e.getMessage().replace(location.toString(), "it").replace(shown(file).toString(), "it");
      return Optional.of(new WarehouseProblem(shown(file).toString(), "not the Parquet file the log of "
          + file.getParent().getName() + " names (" + why + "): changed or overwritten after it was written"));
    }
  }

  /**
   * A Parquet file as a failure's messages name it: Spark's ("Encountered error while reading file
   * file:///…/part-….parquet."), Hadoop's ("Checksum error: file:/…parquet at 4096 exp: …"),
   * Parquet's ("file:/…parquet is not a Parquet file").
   */
  private static final Pattern NAMED_FILE = Pattern.compile(
      "(?:[A-Za-z][A-Za-z0-9+.-]*:)?/[^\\s\"'<>()\\[\\],;]*?\\.parquet(?![A-Za-z0-9_-])");

  /** The Parquet files {@code failure}'s messages name (its causes' too), in the order met. */
  public static java.util.Set<Path> namedIn(Throwable failure) {
    java.util.Set<Path> files = new java.util.LinkedHashSet<>();
    for (Throwable c = failure; c != null; c = c.getCause() == c ? null : c.getCause()) {
      Matcher named = NAMED_FILE.matcher(String.valueOf(c.getMessage()));
      while (named.find()) {
        files.add(new Path(named.group()));
      }
    }
    return files;
  }

  /** Every byte of a data page, decompressed. */
  private static final DataPage.Visitor<Void> PAGE_BYTES = new DataPage.Visitor<>() {
    @Override
    public Void visit(DataPageV1 page) {
      try {
        page.getBytes().toByteArray();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return null;
    }

    @Override
    public Void visit(DataPageV2 page) {
      try {
        page.getRepetitionLevels().toByteArray();
        page.getDefinitionLevels().toByteArray();
        page.getData().toByteArray();
      } catch (IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
      return null;
    }
  };

  /** A local file as its plain path (as benchlake shows local paths), a remote one as its URI. */
  public static Path shown(Path path) {
    return Storage.isLocal(path) ? new Path(path.toUri().getPath()) : path;
  }
}
