package dev.benchlake.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.benchlake.ingest.format.NotResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Symbolic links under the folders given to {@code ingest}: each real file is read once, under the
 * first name met (a named file, then a walked folder's own entries, then links), and a link that
 * leads back into what holds it, to something read already, or nowhere is one line of the files not
 * read, never followed. Two links that formed a loop made the walk run for ever (a folder linking
 * to itself listed its file 40 times, once per level until the kernel's limit on links in a path).
 * Without Spark: what the ingest resolves before it starts one ({@link InputCheck}).
 */
class SymlinkedInputsTest {
  @TempDir
  Path tmp;

  private Path result(Path at) throws IOException {
    Files.createDirectories(at.getParent());
    try (InputStream in = SymlinkedInputsTest.class.getResourceAsStream("/dev/benchlake/ingest/fixtures/oltp_point_select.txt")) {
      Files.copy(in, at);
    }
    return at;
  }

  private InputResolver.Resolved resolve(Path... inputs) {
    return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> InputResolver.resolve(IngestRequest.of(inputs)),
        "the walk ends");
  }

  private static List<String> read(InputResolver.Resolved resolved) {
    return resolved.byFormat().values().stream().flatMap(List::stream).map(Object::toString).toList();
  }

  private static List<String> notRead(InputResolver.Resolved resolved) {
    return resolved.notRead().stream().map(NotResult::line).toList();
  }

  @Test
  void twoFoldersLinkingToEachOtherAreWalkedOnceWithEachLinkNamed() throws IOException {
    Path root = tmp.resolve("results");
    Path a = result(root.resolve("a/run.txt"));
    Path b = result(root.resolve("b/run.txt"));
    Files.createSymbolicLink(root.resolve("a/to-b"), Path.of("../b"));
    Files.createSymbolicLink(root.resolve("b/to-a"), Path.of("../a"));

    InputResolver.Resolved resolved = resolve(root);

    assertThat(read(resolved)).containsExactly(a.toString(), b.toString());
    assertThat(notRead(resolved)).containsExactly(
        root.resolve("a/to-b") + ": a link to " + root.resolve("b") + ", which is read under that name; not followed",
        root.resolve("b/to-a") + ": a link to " + root.resolve("a") + ", which is read under that name; not followed");
  }

  @Test
  void aFolderLinkingToItselfOrToItsParentIsALoopNamedOnce() throws IOException {
    Path root = tmp.resolve("results");
    Path file = result(root.resolve("x/run.txt"));
    Files.createSymbolicLink(root.resolve("x/self"), Path.of("."));
    Files.createSymbolicLink(root.resolve("x/up"), Path.of(".."));

    InputResolver.Resolved resolved = resolve(root);

    assertThat(read(resolved)).containsExactly(file.toString());
    assertThat(notRead(resolved)).containsExactly(
        root.resolve("x/self") + ": a link to " + root.resolve("x") + ", which holds it (a loop); not followed",
        root.resolve("x/up") + ": a link to " + root + ", which holds it (a loop); not followed");
  }

  @Test
  void aLinkToAFileNamedOnTheCommandLineDoesNotReadItTwice() throws IOException {
    Path named = result(tmp.resolve("named.txt"));
    Path root = tmp.resolve("results");
    Path other = result(root.resolve("other.txt"));
    Files.createSymbolicLink(root.resolve("again.txt"), named);
    Files.createSymbolicLink(root.resolve("broken.txt"), root.resolve("gone.txt"));
    Path alias = Files.createSymbolicLink(tmp.resolve("alias.txt"), named);

    InputResolver.Resolved resolved = resolve(root, named, alias);

    assertThat(read(resolved)).containsExactly(other.toString(), named.toString());
    assertThat(notRead(resolved)).containsExactly(
        alias + ": the same file as " + named + ", which is read under that name; not read again",
        root.resolve("again.txt") + ": the same file as " + named + ", which is read under that name; not read again",
        root.resolve("broken.txt") + ": a link to " + root.resolve("gone.txt")
            + ", which leads nowhere (missing, or links that loop); not read");
  }

  @Test
  void aHiddenFolderWithALoopIsCountedOnce() throws IOException {
    Path root = tmp.resolve("results");
    Path file = result(root.resolve("run.txt"));
    result(root.resolve(".old/run.txt"));
    Files.createSymbolicLink(root.resolve(".old/again"), Path.of("."));

    InputResolver.Resolved resolved = resolve(root);

    assertThat(read(resolved)).containsExactly(file.toString());
    assertThat(Map.of("line", notRead(resolved), "files", resolved.notRead().get(0).files())).isEqualTo(Map.of(
        "line", List.of(root.resolve(".old") + ": hidden folder (1 file), not read: name it to ingest it"), "files", 1));
  }
}
