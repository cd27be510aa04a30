package dev.benchlake.ingest;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.core.raw.RunDirectory;
import dev.benchlake.ingest.format.NotResult;
import dev.benchlake.ingest.format.Formats;
import dev.benchlake.ingest.format.Heads;
import dev.benchlake.ingest.format.MytoolsFormat;
import dev.benchlake.ingest.format.Probe;
import dev.benchlake.ingest.format.SourceFormat;
import dev.benchlake.ingest.parse.RawLines;
import dev.benchlake.ingest.source.FileTree;
import dev.benchlake.warehouse.fs.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * Turns the paths a user named into input files (or loadgen run directories) grouped by format:
 * directories are walked, every file is checked for emptiness and binary content, and with
 * {@code --format auto} each file's head is sniffed and the choice said in a message. A mytools
 * result folder, like a loadgen run directory, is one input: its folder's name says what it is.
 * Everything is read through {@link Storage}, so inputs may be local paths or {@code hdfs://},
 * {@code s3a://}, {@code file:} URIs.
 *
 * <p>Every file under a folder is accounted for: a file the user named must be a result (else exit
 * 2), but a file found by walking a folder that is not one (a README, a chart, notes: empty, binary,
 * or of no known format) is listed as not read with what it is, and so is a hidden file or folder
 * (a name starting with {@code .}: {@code .git}, {@code .ipynb_checkpoints}, copies an editor
 * keeps), with the number of files in it; a hidden folder named explicitly is read.
 */
final class InputResolver {
  private InputResolver() {}

  /** The inputs by format, and the files found under folders that are not read, each with why. */
  record Resolved(Map<SourceFormat, List<Path>> byFormat, List<NotResult> notRead) {}

  static Resolved resolve(IngestRequest request) throws IOException {
    if (request.inputs().isEmpty()) {
      throw new BadInputException("no input: name at least one file or directory");
    }
    boolean auto = request.format().equals(IngestRequest.AUTO);
    SourceFormat explicit = auto ? null : Formats.named(request.format());
    Map<SourceFormat, List<Path>> byFormat = new LinkedHashMap<>();
    List<NotResult> notRead = new ArrayList<>();
    boolean mytoolsAllowed = explicit == null || explicit.name().equals(MytoolsFormat.NAME);
    Storage files = request.storage();
    Map<Path, Boolean> inputs = expand(request.inputs(), explicit, files, notRead);
    for (Map.Entry<Path, Boolean> entry : inputs.entrySet()) {
      Path input = entry.getKey();
      boolean walked = entry.getValue();
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
      Optional<String> notText = notText(input, files);
      if (notText.isPresent()) {
        if (!walked) {
          throw new BadInputException(input + ": " + notText.get());
        }
        notRead.add(new NotResult(input.toString(), notText.get()));
        continue;
      }
      Probe probe = probe(input, request.mapping() != null, files);
      SourceFormat format;
      if (explicit != null) {
        format = explicit;
        if (walked && explicit.sniff(probe).isEmpty()) {
          notRead.add(new NotResult(input.toString(), "not " + explicit.name() + " output: first line "
              + RawLines.quote(firstLine(probe), 60)));
          continue;
        }
      } else {
        Optional<Formats.Detection> detection = Formats.detect(probe);
        if (detection.isEmpty()) {
          if (walked) {
            notRead.add(new NotResult(input.toString(), "no known format: first line " + RawLines.quote(firstLine(probe), 60)));
            continue;
          }
          throw new BadInputException(input + ": cannot tell the format (first line " + RawLines.quote(firstLine(probe), 80)
              + " is none of " + String.join(", ", Formats.names())
              + "); name it with --format" + (request.mapping() == null ? ", or give a CSV --mapping" : ""));
        }
        format = detection.get().format();
        request.messages().accept(input + ": " + format.name() + " (" + detection.get().reason() + ")");
      }
      byFormat.computeIfAbsent(format, f -> new ArrayList<>()).add(input);
    }
    if (byFormat.isEmpty()) {
      throw new BadInputException(request.inputs() + ": no results in there: " + notRead.size() + " file"
          + (notRead.size() == 1 ? "" : "s") + " not read (" + notRead.get(0).line()
          + (notRead.size() > 1 ? "; …" : "") + ")");
    }
    return new Resolved(byFormat, notRead);
  }

  private static String firstLine(Probe probe) {
    return probe.nonBlank(1).stream().findFirst().orElse("");
  }

  /**
   * Files and run directories, each once however many names it has (the first met: named paths in
   * the order given, then the folders' own entries, then their links: {@link FileTree}),
   * directories walked in name order, each with whether it was found by walking a folder (true) or
   * named (false).
   */
  private static Map<Path, Boolean> expand(List<String> inputs, SourceFormat explicit, Storage files,
      List<NotResult> notRead) throws IOException {
    Map<Path, Boolean> out = new LinkedHashMap<>();
    FileTree tree = new FileTree(files);
    for (String given : inputs) {
      Path path = Storage.location(given);
      FileStatus status = files.status(path)
          .orElseThrow(() -> new BadInputException(given + ": no such file or directory"));
      if (status.isFile()) {
        Path parent = path.getParent();
        boolean partOfRunDir = parent != null && (path.getName().equals(RunDirectory.MANIFEST)
            || RunDirectory.isTasksFile(path.getName())) && isRunDirectory(parent, files);
        Path chosen = partOfRunDir && (explicit == null || explicit.name().equals("loadgen")) ? parent : path;
        named(chosen, chosen == path, tree, out, notRead);
      } else if ((explicit == null || explicit.name().equals("loadgen")) && isRunDirectory(path, files)) {
        named(path, false, tree, out, notRead);
      } else if ((explicit == null || explicit.name().equals(MytoolsFormat.NAME)) && MytoolsFormat.isResultFolder(path, files)) {
        named(path, false, tree, out, notRead);
      } else {
        Optional<Path> first = tree.claim(path);
        if (first.isEmpty()) {
          tree.walk(path, walker(out, files, notRead));
        } else if (!first.get().equals(path)) {
          notRead.add(NotResult.link(path.toString(), FileTree.metBefore(first.get(), true)));
        }
      }
    }
    tree.finish();
    if (out.isEmpty() && notRead.isEmpty()) {
      throw new BadInputException(inputs + ": no files in there");
    }
    return out;
  }

  /** A path the user named: taken, unless it is another name of one taken already (then listed as such). */
  private static void named(Path path, boolean file, FileTree tree, Map<Path, Boolean> out, List<NotResult> notRead) {
    Optional<Path> first = tree.claim(path);
    if (first.isEmpty()) {
      out.putIfAbsent(path, false);
    } else if (!first.get().equals(path)) {
      notRead.add(NotResult.link(path.toString(), FileTree.metBefore(first.get(), !file)));
    }
  }

  /** A loadgen run directory: a folder with a manifest (core's {@link RunDirectory} layout). */
  static boolean isRunDirectory(Path dir, Storage files) throws IOException {
    return files.isFile(new Path(dir, RunDirectory.MANIFEST));
  }

  /**
   * What a walk of a named folder takes: files, and run directories and mytools result folders as
   * wholes; hidden entries are listed (with their files' count), links not followed are listed.
   */
  private static FileTree.Visitor walker(Map<Path, Boolean> out, Storage files, List<NotResult> notRead) {
    return new FileTree.Visitor() {
      @Override
      public boolean skip(Storage.Entry entry) throws IOException {
        Path child = entry.path();
        if (!child.getName().startsWith(".")) {
          return false;
        }
        boolean folder = entry.status() != null && entry.status().isDirectory();
        notRead.add(folder ? NotResult.hiddenFolder(child.toString(), FileTree.countFiles(child, files))
            : NotResult.hiddenFile(child.toString()));
        return true;
      }

      @Override
      public boolean enter(Path folder) throws IOException {
        if (isRunDirectory(folder, files) || MytoolsFormat.isResultFolder(folder, files)) {
          out.putIfAbsent(folder, true);
          return false;
        }
        return true;
      }

      @Override
      public void file(Path file) {
        out.putIfAbsent(file, true);
      }

      @Override
      public void notFollowed(Path link, String why) {
        notRead.add(NotResult.link(link.toString(), why));
      }
    };
  }

  /** Why a file is not text to read (empty, binary), or empty when it is. */
  private static Optional<String> notText(Path file, Storage files) throws IOException {
    long size = files.size(file);
    if (size == 0) {
      return Optional.of("empty file (0 bytes): nothing to ingest");
    }
    byte[] head = files.head(file, Probe.HEAD_BYTES);
    for (int i = 0; i < head.length; i++) {
      if (head[i] == 0) {
        return Optional.of("binary file (NUL byte at offset " + i + "), not a text result file");
      }
    }
    if (Heads.lines(head, size).stream().allMatch(String::isBlank)) {
      return Optional.of("no content (only blank lines)");
    }
    return Optional.empty();
  }

  /** The head of a file that {@link #notText} found to be text. */
  private static Probe probe(Path file, boolean hasMapping, Storage files) throws IOException {
    return new Probe(file, List.copyOf(Heads.lines(files.head(file, Probe.HEAD_BYTES), files.size(file))), hasMapping, files);
  }
}
