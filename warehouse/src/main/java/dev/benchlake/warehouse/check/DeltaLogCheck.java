package dev.benchlake.warehouse.check;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import dev.benchlake.warehouse.WarehouseProblem;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.ChecksumException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;

/**
 * Every file of one Delta table's log ({@code TABLE/_delta_log}), read whole: what Delta's readers
 * would stumble on, each named. Delta Kernel's own errors name no file ("Unexpected end-of-input"),
 * and Hadoop's checksum error is not said as a cause; this says which file, and what is wrong.
 *
 * <ul>
 *   <li>commits ({@code N.json}) and V2 checkpoints' JSON: every line one JSON object (a file cut
 *       mid-way ends in half an action), the bytes equal to Hadoop's checksum file beside them
 *       ({@code .N.json.crc}, where the local file system wrote one: a file cut at a line end
 *       parses, but no longer matches it);
 *   <li>the versions after the latest checkpoint (from 0 without one) without a gap: Delta cannot
 *       build a table's state past a missing commit; and up to the latest version the log's other
 *       files know of (Delta's checksum {@code N.crc} of a version, Hadoop's {@code .N.json.crc} of
 *       its commit, both written after the commit itself): a log whose latest commits, or all of
 *       them, were deleted loads as an older table, or as none;
 *   <li>Parquet checkpoints: whole (checksum) with a footer that parses;
 *   <li>{@code _last_checkpoint}: JSON naming a checkpoint the log has;
 *   <li>version checksums ({@code N.crc}: Delta's record of the table's file count and size at N):
 *       JSON; {@link #checksumProblem} compares the latest one with the table's files.
 * </ul>
 *
 * Older commits than the latest checkpoint may be missing: Delta removes them itself once they
 * are past its log retention. Nothing is written.
 */
public final class DeltaLogCheck {
  static final String LOG_DIR = "_delta_log";
  private static final String LAST_CHECKPOINT = "_last_checkpoint";
  private static final Pattern COMMIT = Pattern.compile("(\\d{20})\\.json");
  /** Classic ({@code N.checkpoint.parquet}), multi-part ({@code N.checkpoint.K.P.parquet}) and V2 ({@code N.checkpoint.UUID.json|parquet}). */
  private static final Pattern CHECKPOINT = Pattern.compile("(\\d{20})\\.checkpoint(?:\\.\\d+\\.\\d+|\\.[0-9a-fA-F-]{36})?\\.(parquet|json)");
  private static final Pattern VERSION_CHECKSUM = Pattern.compile("(\\d{20})\\.crc");
  /** Hadoop's checksum file of a commit ({@code .N.json.crc}): renamed into place after the commit. */
  private static final Pattern COMMIT_SIDECAR = Pattern.compile("\\.(\\d{20})\\.json\\.crc");

  private DeltaLogCheck() {}

  /** The log folder of a table folder. */
  public static Path logOf(Path table) {
    return new Path(table, LOG_DIR);
  }

  /** Every problem of the log's files, in file name order; empty when there is no log. */
  public static List<WarehouseProblem> problems(Storage storage, Path log) throws IOException {
    List<WarehouseProblem> problems = new ArrayList<>();
    if (!storage.isDirectory(log)) {
      return problems;
    }
    TreeMap<Long, Path> commits = new TreeMap<>();
    TreeSet<Long> checkpoints = new TreeSet<>();
    // The latest version a file written after its commit knows of, and that file.
    TreeMap<Long, Path> after = new TreeMap<>();
    Path lastCheckpoint = null;
    for (FileStatus entry : storage.list(log)) {
      if (!entry.isFile()) {
        continue;
      }
      Path file = entry.getPath();
      String name = file.getName();
      Matcher commit = COMMIT.matcher(name);
      Matcher checkpoint = CHECKPOINT.matcher(name);
      Matcher versionChecksum = VERSION_CHECKSUM.matcher(name);
      Matcher sidecar = COMMIT_SIDECAR.matcher(name);
      if (commit.matches()) {
        commits.put(Long.parseLong(commit.group(1)), file);
        jsonLinesProblem(storage, file).ifPresent(problems::add);
      } else if (checkpoint.matches()) {
        checkpoints.add(Long.parseLong(checkpoint.group(1)));
        (checkpoint.group(2).equals("json") ? jsonLinesProblem(storage, file) : parquetProblem(storage, file))
            .ifPresent(problems::add);
      } else if (versionChecksum.matches()) {
        after.putIfAbsent(Long.parseLong(versionChecksum.group(1)), file);
        jsonLinesProblem(storage, file).ifPresent(problems::add);
      } else if (sidecar.matches()) {
        after.putIfAbsent(Long.parseLong(sidecar.group(1)), file);
      } else if (name.equals(LAST_CHECKPOINT)) {
        lastCheckpoint = file;
      }
    }
    if (lastCheckpoint != null) {
      lastCheckpointProblem(storage, log, lastCheckpoint, checkpoints).ifPresent(problems::add);
    }
    long from = checkpoints.isEmpty() ? 0 : checkpoints.last() + 1;
    long latestCommit = commits.isEmpty() ? -1 : commits.lastKey();
    long known = after.isEmpty() ? -1 : after.lastKey();
    for (long version = from; version < latestCommit; version++) {
      if (!commits.containsKey(version) && stillMissing(storage, log, version)) {
        problems.add(new WarehouseProblem(commitFile(log, version).toString(),
            "missing: the log has version " + latestCommit + ", and Delta cannot build the table past a gap"));
      }
    }
    // Deleted latest commits leave no gap: what was written after them says they were there.
    if (known >= from && latestCommit < 0 && checkpoints.isEmpty()) {
      if (stillMissing(storage, log, known)) {
        problems.add(new WarehouseProblem(log.toString(), "holds no commit, yet it holds " + after.get(known).getName()
            + ", written once version " + known + " was committed: the table's commits were deleted, and Delta cannot "
            + "read the table without them"));
      }
    } else {
      long latest = Math.max(latestCommit, from - 1);
      for (long version = latest + 1; version <= known; version++) {
        if (stillMissing(storage, log, version)) {
          problems.add(new WarehouseProblem(commitFile(log, version).toString(), "missing, yet the log holds "
              + after.get(known).getName() + ", written once version " + known + " was committed: the latest commits "
              + "were deleted, and Delta reads the table as of version " + latest + " without them (the rows they "
              + "added are lost to every reader)"));
        }
      }
    }
    problems.sort(java.util.Comparator.comparing(WarehouseProblem::file));
    return problems;
  }

  /**
   * Delta's checksum of {@code version} ({@code N.crc}, when the log has one that parses) against
   * the data files the version names: the count and bytes it recorded when it committed them. A
   * commit that lost an action at a line end parses; this is where it shows.
   *
   * @param files the data files the table's {@code version} names, as Delta Kernel listed them
   */
  public static Optional<WarehouseProblem> checksumProblem(Storage storage, Path log, long version,
      List<DataFilesCheck.NamedFile> files) throws IOException {
    Path file = new Path(log, String.format(Locale.ROOT, "%020d.crc", version));
    if (!storage.isFile(file)) {
      return Optional.empty();
    }
    JsonNode checksum;
    try {
      checksum = Json.mapper().readTree(read(storage, file));
    } catch (IOException e) {
      return Optional.empty(); // said by problems()
    }
    if (checksum == null || !checksum.path("numFiles").canConvertToLong()
        || !checksum.path("tableSizeBytes").canConvertToLong()) {
      return Optional.empty();
    }
    long recordedFiles = checksum.get("numFiles").longValue();
    long recordedBytes = checksum.get("tableSizeBytes").longValue();
    long bytes = files.stream().mapToLong(DataFilesCheck.NamedFile::bytes).sum();
    if (recordedFiles == files.size() && recordedBytes == bytes) {
      return Optional.empty();
    }
    return Optional.of(new WarehouseProblem(file.toString(), "Delta recorded " + recordedFiles + " data files of "
        + recordedBytes + " bytes for version " + version + ", but the log names " + files.size() + " of " + bytes
        + ": a commit lost some of its actions, or this checksum file is wrong"));
  }

  /** A file of JSON lines (commits, version checksums, V2 checkpoints): whole, and every line an object. */
  private static Optional<WarehouseProblem> jsonLinesProblem(Storage storage, Path file) {
    String text;
    try {
      text = new String(read(storage, file), StandardCharsets.UTF_8);
    } catch (ChecksumException e) {
      return Optional.of(notItsChecksum(file));
    } catch (IOException e) {
      return Optional.of(new WarehouseProblem(file.toString(), "cannot be read (" + e.getMessage() + ")"));
    }
    if (text.isBlank()) {
      return Optional.of(new WarehouseProblem(file.toString(), "empty (Delta writes no empty log file)"));
    }
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      try {
        JsonNode node = Json.mapper().readTree(lines[i]);
        if (node == null || !node.isObject()) {
          return Optional.of(new WarehouseProblem(file.toString(), "line " + (i + 1) + " is not a JSON object"));
        }
      } catch (JsonProcessingException e) {
        return Optional.of(new WarehouseProblem(file.toString(), "line " + (i + 1)
            + " is not whole JSON (" + e.getOriginalMessage() + "): the file was cut short or overwritten"));
      }
    }
    return Optional.empty();
  }

  /** A Parquet checkpoint: whole, with a footer that parses. */
  private static Optional<WarehouseProblem> parquetProblem(Storage storage, Path file) {
    try {
      read(storage, file);
      try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
          new Path(Storage.qualified(file)), storage.conf()))) {
        reader.getFooter();
      }
      return Optional.empty();
    } catch (ChecksumException e) {
      return Optional.of(notItsChecksum(file));
    } catch (IOException | RuntimeException e) {
      return Optional.of(new WarehouseProblem(file.toString(), "not a whole Parquet file (" + e.getMessage() + ")"));
    }
  }

  private static Path commitFile(Path log, long version) {
    return new Path(log, String.format(Locale.ROOT, "%020d.json", version));
  }

  /**
   * Whether a commit the listing lacks is still missing: a listing made while a concurrent ingest
   * commits may hold a file written after that commit (its checksum) and not the commit itself.
   */
  private static boolean stillMissing(Storage storage, Path log, long version) throws IOException {
    return !storage.exists(commitFile(log, version));
  }

  private static Optional<WarehouseProblem> lastCheckpointProblem(Storage storage, Path log, Path file,
      TreeSet<Long> checkpoints) {
    try {
      JsonNode node = Json.mapper().readTree(read(storage, file));
      JsonNode version = node == null ? null : node.get("version");
      if (version == null || !version.canConvertToLong()) {
        return Optional.of(new WarehouseProblem(file.toString(), "names no checkpoint version"));
      }
      // A checkpoint a concurrent commit wrote after the log was listed (then this file) is no problem.
      if (!checkpoints.contains(version.longValue()) && !hasCheckpoint(storage, log, version.longValue())) {
        return Optional.of(new WarehouseProblem(file.toString(), "names the checkpoint of version " + version.longValue()
            + ", which the log does not have"));
      }
      return Optional.empty();
    } catch (ChecksumException e) {
      return Optional.of(notItsChecksum(file));
    } catch (IOException e) {
      return Optional.of(new WarehouseProblem(file.toString(), "not JSON (" + e.getMessage() + ")"));
    }
  }

  private static boolean hasCheckpoint(Storage storage, Path log, long version) throws IOException {
    for (FileStatus entry : storage.list(log)) {
      Matcher checkpoint = CHECKPOINT.matcher(entry.getPath().getName());
      if (checkpoint.matches() && Long.parseLong(checkpoint.group(1)) == version) {
        return true;
      }
    }
    return false;
  }

  private static WarehouseProblem notItsChecksum(Path file) {
    return new WarehouseProblem(file.toString(), "its bytes do not match its checksum file ." + file.getName()
        + ".crc: it was cut short or changed after it was written");
  }

  /** The whole file, its Hadoop checksum verified where there is one. */
  private static byte[] read(Storage storage, Path file) throws IOException {
    try (InputStream in = storage.checksummedFs(file).open(file)) {
      return in.readAllBytes();
    }
  }
}
