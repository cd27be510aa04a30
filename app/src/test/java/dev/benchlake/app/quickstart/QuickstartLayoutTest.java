package dev.benchlake.app.quickstart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A re-run keeps the earlier quickstart's folder, whole, under its date (issue 49). */
class QuickstartLayoutTest {
  @Test
  void aReRunKeepsTheEarlierFolderUnderItsDateBeforeWritingAnything(@TempDir Path dir) throws Exception {
    QuickstartLayout layout = new QuickstartLayout(dir.resolve("quickstart"));
    assertThat(layout.prepare()).as("a first run keeps nothing").isEmpty();
    Files.setLastModifiedTime(layout.root().resolve(QuickstartLayout.MARKER),
        FileTime.from(Instant.parse("2026-12-06T16:40:12Z")));
    Files.createDirectories(layout.compare());
    Files.writeString(layout.compare().resolve("report.md"), "the first results", StandardCharsets.UTF_8);

    // The second run stops (killed) right after it prepared its folder: the first results are all there.
    Optional<Path> kept = new QuickstartLayout(layout.root()).prepare();
    assertThat(kept).contains(dir.resolve("quickstart.2026-12-06T16-40-12"));
    assertThat(Files.readString(kept.get().resolve("compare/report.md"), StandardCharsets.UTF_8))
        .isEqualTo("the first results");
    assertThat(kept.get().resolve(QuickstartLayout.MARKER)).exists();
    try (Stream<Path> fresh = Files.list(layout.root())) {
      assertThat(fresh.map(p -> p.getFileName().toString()).sorted().toList())
          .containsExactly(QuickstartLayout.MARKER, "runs");
    }
  }

  @Test
  void twoEarlierFoldersOfTheSameSecondAreBothKept(@TempDir Path dir) throws Exception {
    QuickstartLayout layout = new QuickstartLayout(dir.resolve("qs"));
    FileTime started = FileTime.from(Instant.parse("2026-12-06T16:40:12Z"));
    layout.prepare();
    Files.setLastModifiedTime(layout.root().resolve(QuickstartLayout.MARKER), started);
    Path first = layout.prepare().orElseThrow();
    Files.setLastModifiedTime(layout.root().resolve(QuickstartLayout.MARKER), started);
    Path second = layout.prepare().orElseThrow();
    assertThat(List.of(first.getFileName().toString(), second.getFileName().toString()))
        .containsExactly("qs.2026-12-06T16-40-12", "qs.2026-12-06T16-40-12-2");
  }

  @Test
  void aFolderTheQuickstartDidNotMakeIsRefusedAndLeftAlone(@TempDir Path dir) throws Exception {
    Path foreign = Files.createDirectories(dir.resolve("mine"));
    Files.writeString(foreign.resolve("notes.txt"), "mine", StandardCharsets.UTF_8);
    assertThatThrownBy(() -> new QuickstartLayout(foreign).prepare()).isInstanceOf(BadInputException.class)
        .hasMessageContaining("was not made by the quickstart");
    try (Stream<Path> siblings = Files.list(dir)) {
      assertThat(siblings).containsExactly(foreign);
    }
  }
}
