package dev.benchlake.ingest;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.ingest.format.Formats;
import dev.benchlake.ingest.format.Heads;
import dev.benchlake.ingest.format.MytoolsFormat;
import dev.benchlake.ingest.format.Probe;
import dev.benchlake.ingest.format.SourceFormat;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Turns the paths a user named into input files (or loadgen run directories) grouped by format:
 * directories are walked, every file is checked for emptiness and binary content, and with
 * {@code --format auto} each file's head is sniffed and the choice said in a message. A mytools
 * result folder, like a loadgen run directory, is one input: its folder's name says what it is.
 * Everything is read through {@link Storage}, so inputs may be local paths or {@code hdfs://},
 * {@code s3a://}, {@code file:} URIs.
 */
final class InputResolver {
  private InputResolver() {}

  static Map<SourceFormat, List<Path>> resolve(IngestRequest request) throws IOException {
    if (request.inputs().isEmpty()) {
      throw new BadInputException("no input: name at least one file or directory");
    }
    boolean auto = request.format().equals(IngestRequest.AUTO);
    SourceFormat explicit = auto ? null : Formats.named(request.format());
    Map<SourceFormat, List<Path>> byFormat = new LinkedHashMap<>();
    boolean mytoolsAllowed = explicit == null || explicit.name().equals(MytoolsFormat.NAME);
    Storage files = request.storage();
    for (Path input : expand(request.inputs(), explicit, files)) {
      Path parent = input.getParent();
      boolean directory = files.isDirectory(input);
      if (mytoolsAllowed && (MytoolsFormat.isResultFolder(input, files) || (!directory && parent != null
          && MytoolsFormat.isResultFolder(parent, files)))) {
        // Named by its folder, not its content: vmstat captures and configs in there are listed, not sniffed.
        byFormat.computeIfAbsent(Formats.named(MytoolsFormat.NAME), f -> new ArrayList<>()).add(input);
        if (auto) {
          request.messages().accept(input + ": mytools (" + (directory ? "a result folder"
              : "a file of a result folder") + " x.<dbms><version>_<build>.<config>.pk<0|1>)");
        }
        continue;
      }
      if (directory) {
        SourceFormat loadgen = explicit != null ? explicit : Formats.named("loadgen");
        byFormat.computeIfAbsent(loadgen, f -> new ArrayList<>()).add(input);
        if (auto) {
          request.messages().accept(input + ": loadgen (a run directory with " + RunDirectory.MANIFEST + ")");
        }
        continue;
      }
      Probe probe = probe(input, request.mapping() != null, files);
      SourceFormat format;
      if (explicit != null) {
        format = explicit;
      } else {
        Optional<Formats.Detection> detection = Formats.detect(probe);
        if (detection.isEmpty()) {
          String first = probe.nonBlank(1).stream().findFirst().orElse("");
          throw new BadInputException(input + ": cannot tell the format (first line " + RawLines.quote(first, 80)
              + " is none of " + String.join(", ", Formats.names())
              + "); name it with --format" + (request.mapping() == null ? ", or give a CSV --mapping" : ""));
        }
        format = detection.get().format();
        request.messages().accept(input + ": " + format.name() + " (" + detection.get().reason() + ")");
      }
      byFormat.computeIfAbsent(format, f -> new ArrayList<>()).add(input);
    }
    return byFormat;
  }

  /** Files and run directories, each once, in the order given (directories walked in name order). */
  private static List<Path> expand(List<String> inputs, SourceFormat explicit, Storage files) throws IOException {
    Set<Path> out = new LinkedHashSet<>();
    for (String given : inputs) {
      Path path = Storage.location(given);
      FileStatus status = files.status(path)
          .orElseThrow(() -> new BadInputException(given + ": no such file or directory"));
      if (status.isFile()) {
        Path parent = path.getParent();
        boolean partOfRunDir = parent != null && (path.getName().equals(RunDirectory.MANIFEST)
            || path.getName().equals(RunDirectory.TASKS)) && isRunDirectory(parent, files);
        out.add(partOfRunDir && (explicit == null || explicit.name().equals("loadgen")) ? parent : path);
      } else if ((explicit == null || explicit.name().equals("loadgen")) && isRunDirectory(path, files)) {
        out.add(path);
      } else if ((explicit == null || explicit.name().equals(MytoolsFormat.NAME)) && MytoolsFormat.isResultFolder(path, files)) {
        out.add(path);
      } else {
        walk(path, out, files);
      }
    }
    if (out.isEmpty()) {
      throw new BadInputException(inputs + ": no files in there");
    }
    return new ArrayList<>(out);
  }

  /** A loadgen run directory: a folder with a manifest (core's {@link RunDirectory} layout). */
  static boolean isRunDirectory(Path dir, Storage files) throws IOException {
    return files.isFile(new Path(dir, RunDirectory.MANIFEST));
  }

  private static void walk(Path dir, Set<Path> out, Storage files) throws IOException {
    for (FileStatus entry : files.list(dir)) {
      Path child = entry.getPath();
      if (child.getName().startsWith(".")) {
        continue;
      }
      if (entry.isDirectory()) {
        if (isRunDirectory(child, files) || MytoolsFormat.isResultFolder(child, files)) {
          out.add(child);
        } else {
          walk(child, out, files);
        }
      } else if (entry.isFile()) {
        out.add(child);
      }
    }
  }

  /**
   * The head of a file, after refusing empty and binary files.
   *
   * @throws BadInputException naming the file
   */
  static Probe probe(Path file, boolean hasMapping, Storage files) throws IOException {
    long size = files.size(file);
    if (size == 0) {
      throw new BadInputException(file + ": empty file (0 bytes): nothing to ingest");
    }
    byte[] head = files.head(file, Probe.HEAD_BYTES);
    for (int i = 0; i < head.length; i++) {
      if (head[i] == 0) {
        throw new BadInputException(file + ": binary file (NUL byte at offset " + i
            + "), not a text result file");
      }
    }
    List<String> lines = Heads.lines(head, size);
    if (lines.stream().allMatch(String::isBlank)) {
      throw new BadInputException(file + ": no content (only blank lines)");
    }
    return new Probe(file, List.copyOf(lines), hasMapping, files);
  }
}
