package dev.benchlake.warehouse.fs;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.redaction.Redaction;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The one place where benchlake touches the files of its inputs and warehouses: through Hadoop's
 * {@link FileSystem} API, so that {@code hdfs://}, {@code s3a://} and {@code file:} locations all
 * work wherever a path is taken, on the configuration the caller has (a Spark session's
 * {@code hadoopConfiguration()}, which holds every {@code --conf spark.hadoop.*}).
 *
 * <p>A location without a scheme is a local file, whatever {@code fs.defaultFS} says: made
 * absolute against the working folder and normalised, as it always was ({@link #location}); a
 * {@code file:} URI becomes the same plain path. Local locations stay scheme-less so that they are
 * shown and stored (source paths in the warehouse) exactly as before benchlake read through
 * Hadoop; this class resolves them on the local file system ({@link #fs}), so they must not be
 * handed to {@code Path.getFileSystem} directly (that would use {@code fs.defaultFS}).
 *
 * <p>Failures name the location and the cause: a missing file, an unknown host or a refused
 * connection are the user's to fix ({@link BadInputException}, exit 2); other I/O errors stay
 * {@link IOException}s.
 */
public final class Storage {
  private final Configuration conf;

  private Storage(Configuration conf) {
    this.conf = conf;
  }

  /** Files on {@code conf} (not copied: later settings apply). */
  public static Storage on(Configuration conf) {
    return new Storage(conf);
  }

  public Configuration conf() {
    return conf;
  }

  /**
   * A location as the user gave it: a URI with a scheme as it is, anything else a local path made
   * absolute against the working folder and normalised ({@code file:} URI).
   *
   * @throws BadInputException for a URI that carries credentials ({@code s3a://KEY:SECRET@bucket}):
   *     a location is stored with every run and shown in every report and message; the refusal shows
   *     it without its user info (the key's id names the account)
   */
  public static Path location(String given) {
    if (hasScheme(given) && Redaction.carriesCredentials(given)) {
      throw new BadInputException(Redaction.withoutUserinfo(given) + ": a location must not carry credentials (it is stored "
          + "with the runs and shown in reports): give them as --conf spark.hadoop.fs.<scheme>.… settings");
    }
    if (hasScheme(given) && !given.startsWith("file:")) {
      return new Path(given);
    }
    String local = given.startsWith("file:") ? new Path(given).toUri().getPath() : given;
    return location(java.nio.file.Path.of(local));
  }

  /** A local path as a location. */
  public static Path location(java.nio.file.Path local) {
    return new Path(local.toAbsolutePath().normalize().toString());
  }

  /** Whether {@code given} starts with a URI scheme of two or more letters (so {@code C:\…} is not one). */
  public static boolean hasScheme(String given) {
    return given.matches("^[A-Za-z][A-Za-z0-9+.-]+:.*");
  }

  /** Whether the location is on the local file system. */
  public static boolean isLocal(Path location) {
    String scheme = location.toUri().getScheme();
    return scheme == null || scheme.equals("file");
  }

  /** A location as a URI that any Hadoop client (Spark, Delta) resolves the same way: local ones as {@code file:}. */
  public static String qualified(Path location) {
    return location.toUri().getScheme() == null ? new Path("file", null, location.toUri().getPath()).toString()
        : location.toString();
  }

  /** The status of a file or folder, or empty when there is none. */
  public Optional<FileStatus> status(Path location) throws IOException {
    try {
      return Optional.of(fs(location).getFileStatus(location));
    } catch (FileNotFoundException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw failure(location, e);
    }
  }

  public boolean exists(Path location) throws IOException {
    return status(location).isPresent();
  }

  public boolean isFile(Path location) throws IOException {
    return status(location).map(FileStatus::isFile).orElse(false);
  }

  public boolean isDirectory(Path location) throws IOException {
    return status(location).map(FileStatus::isDirectory).orElse(false);
  }

  /**
   * The size of a file.
   *
   * @throws BadInputException when there is none
   */
  public long size(Path location) throws IOException {
    return status(location).orElseThrow(() -> noSuchFile(location)).getLen();
  }

  /** The entries of a folder, in name order (as {@code ls} shows them). */
  public List<FileStatus> list(Path folder) throws IOException {
    try {
      FileStatus[] entries = fs(folder).listStatus(folder);
      if (folder.toUri().getScheme() == null) {
        // The local file system qualifies what it lists (file:/…): keep local locations plain.
        for (FileStatus entry : entries) {
          entry.setPath(new Path(entry.getPath().toUri().getPath()));
        }
      }
      return Arrays.stream(entries).sorted(Comparator.comparing(s -> s.getPath().getName())).toList();
    } catch (IOException e) {
      throw failure(folder, e);
    }
  }

  /**
   * An entry of a folder as a walk of the folder tree needs it.
   *
   * @param path the entry, under the folder's name (a link's own name, not its target's)
   * @param status the file or folder it is (through a link: what the link leads to), or null for a
   *     link that leads nowhere (its target is missing, or links loop without end)
   * @param identity what the entry is on disk, the same for every name of one file or folder: a
   *     local one's real path (links resolved), another file system's location; null with status
   * @param link a symbolic link's target as written in it, or null for an entry that is not a link
   */
  public record Entry(Path path, FileStatus status, String identity, String link) {
    public boolean isLink() {
      return link != null;
    }
  }

  /**
   * The entries of a folder, in name order, with what each is on disk ({@link Entry}): a local
   * folder's symbolic links are said as such, and so are those that lead nowhere, which
   * {@link #list} leaves out (Hadoop's local file system drops what it cannot stat). Other file
   * systems have no links here (HDFS's are off unless enabled).
   */
  public List<Entry> entries(Path folder) throws IOException {
    List<FileStatus> listed = list(folder);
    if (!isLocal(folder)) {
      return listed.stream().map(s -> new Entry(s.getPath(), s, s.getPath().toString(), null)).toList();
    }
    java.util.Map<String, FileStatus> byName = new java.util.HashMap<>();
    listed.forEach(s -> byName.put(s.getPath().getName(), s));
    java.util.List<Entry> entries = new java.util.ArrayList<>();
    try (java.nio.file.DirectoryStream<java.nio.file.Path> names = java.nio.file.Files.newDirectoryStream(local(folder))) {
      for (java.nio.file.Path entry : names) {
        FileStatus status = byName.get(entry.getFileName().toString());
        String link = java.nio.file.Files.isSymbolicLink(entry)
            ? java.nio.file.Files.readSymbolicLink(entry).toString() : null;
        if (status == null && link == null) {
          continue; // gone since it was listed
        }
        String identity = status == null ? null : realPath(entry);
        entries.add(new Entry(status != null ? status.getPath() : location(entry), identity == null ? null : status,
            identity, link));
      }
    } catch (IOException e) {
      throw failure(folder, e);
    }
    entries.sort(Comparator.comparing(e -> e.path().getName()));
    return entries;
  }

  /**
   * What a location is on disk ({@link Entry#identity}): a local one's real path, links resolved;
   * another file system's location as it is; empty for a local link that leads nowhere.
   */
  public Optional<String> identity(Path location) {
    return isLocal(location) ? Optional.ofNullable(realPath(local(location))) : Optional.of(location.toString());
  }

  private static String realPath(java.nio.file.Path local) {
    try {
      return local.toRealPath().toString();
    } catch (IOException e) {
      return null; // a link to nothing, or links that loop
    }
  }

  private static java.nio.file.Path local(Path location) {
    return java.nio.file.Path.of(location.toUri().getPath());
  }

  /** A file to read from its start, or to {@code seek} in. */
  public FSDataInputStream open(Path location) throws IOException {
    try {
      return fs(location).open(location);
    } catch (IOException e) {
      throw failure(location, e);
    }
  }

  /** The first {@code bytes} bytes of a file (fewer when it is shorter). */
  public byte[] head(Path location, int bytes) throws IOException {
    try (InputStream in = open(location)) {
      return in.readNBytes(bytes);
    }
  }

  /** A whole (small) file. */
  public byte[] readAll(Path location) throws IOException {
    try (InputStream in = open(location)) {
      return in.readAllBytes();
    }
  }

  /** A whole (small) file as UTF-8 text. */
  public String readString(Path location) throws IOException {
    return new String(readAll(location), StandardCharsets.UTF_8);
  }

  /** The file system of a location: a local one's is the raw local file system (no checksum files). */
  public FileSystem fs(Path location) throws IOException {
    try {
      return isLocal(location) ? FileSystem.getLocal(conf).getRawFileSystem() : location.getFileSystem(conf);
    } catch (IOException e) {
      throw failure(location, e);
    } catch (IllegalArgumentException e) {
      // The HDFS client resolves the NameNode's host when it is made, and says so this way.
      if (e.getCause() instanceof UnknownHostException unknown) {
        throw failure(location, unknown);
      }
      throw e;
    } catch (RuntimeException | LinkageError e) {
      // Hadoop's defaults name a class for s3a:// (and abfs://, gs://…) that is not on the class
      // path unless its jars were added: a RuntimeException around a ClassNotFoundException, or,
      // with hadoop-aws there but not the AWS SDK, a NoClassDefFoundError when it is made.
      for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
        if (c instanceof ClassNotFoundException || c instanceof LinkageError) {
          throw missingFileSystem(location, c.getMessage());
        }
      }
      throw e;
    }
  }

  /**
   * The error for a scheme whose file system's jars are not on the class path: what to add, and
   * how, in one line (docs/reference.md, "On HDFS and object stores").
   */
  static BadInputException missingFileSystem(Path location, String missing) {
    String scheme = location.toUri().getScheme();
    String hadoop = org.apache.hadoop.util.VersionInfo.getVersion();
    String artifact = switch (scheme == null ? "" : scheme) {
      case "s3a" -> "org.apache.hadoop:hadoop-aws:" + hadoop + " and the AWS SDK v2 it uses (its bundle, or the "
          + "software.amazon.awssdk s3 and s3-transfer-manager modules)";
      case "abfs", "abfss", "wasb", "wasbs" -> "org.apache.hadoop:hadoop-azure:" + hadoop;
      case "gs" -> "com.google.cloud.bigdataoss:gcs-connector (its hadoop3 shaded jar)";
      case "oss" -> "org.apache.hadoop:hadoop-aliyun:" + hadoop;
      default -> "the jars of a Hadoop FileSystem for \"" + scheme + "\"";
    };
    return new BadInputException(location + ": no file system for " + scheme + ":// on benchlake's class path ("
        + missing + "): add " + artifact + ", with spark-submit as --packages (or --jars), for bin/benchlake by "
        + "copying the jars into app/target/lib/ (docs/reference.md: On HDFS and object stores)");
  }

  /**
   * The file system of a location that verifies Hadoop's checksum files ({@code .NAME.crc}, which
   * Hadoop's local file system writes beside each file it writes, Spark's and Delta's included):
   * reading a file changed or cut short since it was written fails with a
   * {@link org.apache.hadoop.fs.ChecksumException}. A local location's is the checksummed local
   * file system; HDFS checks its blocks itself, and other file systems have no such files.
   */
  public FileSystem checksummedFs(Path location) throws IOException {
    return isLocal(location) ? FileSystem.getLocal(conf) : fs(location);
  }

  /**
   * The user-facing form of a failure on {@code location}: what the user can fix (no such file, a
   * host that does not resolve or refuses the connection, a scheme without a file system on the
   * class path) is thrown as a {@link BadInputException} naming the location and the cause;
   * anything else is returned, for the caller to throw.
   */
  public static IOException failure(Path location, IOException e) {
    String where = location.toString();
    for (Throwable c = e; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof FileNotFoundException) {
        throw new BadInputException(where + ": no such file or directory", e);
      }
      if (c instanceof UnknownHostException) {
        throw new BadInputException(where + ": cannot reach the file system (unknown host " + c.getMessage() + ")", e);
      }
      if (c instanceof ConnectException) {
        throw new BadInputException(where + ": cannot reach the file system (" + c.getMessage() + ")", e);
      }
      if (c instanceof org.apache.hadoop.fs.UnsupportedFileSystemException) {
        throw missingFileSystem(location, c.getMessage());
      }
    }
    return e;
  }

  /** The error for a location that does not exist. */
  public static BadInputException noSuchFile(Path location) {
    return new BadInputException(location + ": no such file or directory");
  }
}
