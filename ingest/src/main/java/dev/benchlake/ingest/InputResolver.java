package dev.benchlake.ingest;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.ingest.format.Formats;
import dev.benchlake.ingest.format.Heads;
import dev.benchlake.ingest.format.MytoolsFormat;
import dev.benchlake.ingest.format.Probe;
import dev.benchlake.ingest.format.SourceFormat;
import dev.benchlake.ingest.parse.RawLines;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns the paths a user named into input files (or loadgen run directories) grouped by format:
 * directories are walked, every file is checked for emptiness and binary content, and with
 * {@code --format auto} each file's head is sniffed and the choice said in a message. A mytools
 * result folder, like a loadgen run directory, is one input: its folder's name says what it is.
 */
final class InputResolver {
  private InputResolver() {}

  static Map<SourceFormat, List<Path>> resolve(IngestRequest request) throws IOException {
    if (request.paths().isEmpty()) {
      throw new BadInputException("no input: name at least one file or directory");
    }
    boolean auto = request.format().equals(IngestRequest.AUTO);
    SourceFormat explicit = auto ? null : Formats.named(request.format());
    Map<SourceFormat, List<Path>> byFormat = new LinkedHashMap<>();
    boolean mytoolsAllowed = explicit == null || explicit.name().equals(MytoolsFormat.NAME);
    for (Path input : expand(request.paths(), explicit)) {
      Path parent = input.getParent();
      if (mytoolsAllowed && (MytoolsFormat.isResultFolder(input) || (Files.isRegularFile(input) && parent != null
          && MytoolsFormat.isResultFolder(parent)))) {
        // Named by its folder, not its content: vmstat captures and configs in there are listed, not sniffed.
        byFormat.computeIfAbsent(Formats.named(MytoolsFormat.NAME), f -> new ArrayList<>()).add(input);
        if (auto) {
          request.messages().accept(input + ": mytools (" + (Files.isDirectory(input) ? "a result folder"
              : "a file of a result folder") + " x.<dbms><version>_<build>.<config>.pk<0|1>)");
        }
        continue;
      }
      if (Files.isDirectory(input)) {
        SourceFormat loadgen = explicit != null ? explicit : Formats.named("loadgen");
        byFormat.computeIfAbsent(loadgen, f -> new ArrayList<>()).add(input);
        if (auto) {
          request.messages().accept(input + ": loadgen (a run directory with " + RunDirectory.MANIFEST + ")");
        }
        continue;
      }
      Probe probe = probe(input, request.mapping() != null);
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
  private static List<Path> expand(List<Path> paths, SourceFormat explicit) throws IOException {
    Set<Path> out = new LinkedHashSet<>();
    for (Path given : paths) {
      Path path = given.toAbsolutePath().normalize();
      if (!Files.exists(path)) {
        throw new BadInputException(given + ": no such file or directory");
      }
      if (Files.isRegularFile(path)) {
        Path parent = path.getParent();
        boolean partOfRunDir = parent != null && RunDirectory.isRunDirectory(parent)
            && (path.getFileName().toString().equals(RunDirectory.MANIFEST)
                || path.getFileName().toString().equals(RunDirectory.TASKS));
        out.add(partOfRunDir && (explicit == null || explicit.name().equals("loadgen")) ? parent : path);
      } else if (RunDirectory.isRunDirectory(path) && (explicit == null || explicit.name().equals("loadgen"))) {
        out.add(path);
      } else if (MytoolsFormat.isResultFolder(path) && (explicit == null || explicit.name().equals(MytoolsFormat.NAME))) {
        out.add(path);
      } else {
        walk(path, out);
      }
    }
    if (out.isEmpty()) {
      throw new BadInputException(paths + ": no files in there");
    }
    return new ArrayList<>(out);
  }

  private static void walk(Path dir, Set<Path> out) throws IOException {
    List<Path> children;
    try (Stream<Path> list = Files.list(dir)) {
      children = list.sorted().toList();
    }
    for (Path child : children) {
      if (child.getFileName().toString().startsWith(".")) {
        continue;
      }
      if (Files.isDirectory(child)) {
        if (RunDirectory.isRunDirectory(child) || MytoolsFormat.isResultFolder(child)) {
          out.add(child);
        } else {
          walk(child, out);
        }
      } else if (Files.isRegularFile(child)) {
        out.add(child);
      }
    }
  }

  /**
   * The head of a file, after refusing empty and binary files.
   *
   * @throws BadInputException naming the file
   */
  static Probe probe(Path file, boolean hasMapping) throws IOException {
    long size = Files.size(file);
    if (size == 0) {
      throw new BadInputException(file + ": empty file (0 bytes): nothing to ingest");
    }
    byte[] head;
    try (InputStream in = Files.newInputStream(file)) {
      head = in.readNBytes(Probe.HEAD_BYTES);
    }
    for (int i = 0; i < head.length; i++) {
      if (head[i] == 0) {
        throw new BadInputException(file + ": binary file (NUL byte at offset " + i + "), not a text result file");
      }
    }
    List<String> lines = Heads.read(file);
    if (lines.stream().allMatch(String::isBlank)) {
      throw new BadInputException(file + ": no content (only blank lines)");
    }
    return new Probe(file, List.copyOf(lines), hasMapping);
  }
}
