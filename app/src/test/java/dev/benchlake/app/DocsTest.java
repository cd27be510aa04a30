package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Heading;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Text;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;

/**
 * The docs a newcomer reads (issue 45): a README that fits two screens, with the tour and the
 * reference in docs/; a design of about 15 KB whose evidence is a link into the dated log; and every
 * relative link of the repository's Markdown reaching a file, and a heading where it names one (a
 * section that moved leaves no link behind). Reads the files only: no Spark, no process.
 */
class DocsTest {
  private static final Path ROOT = Path.of("..");
  /** The README's budget of words, before anything a newcomer would scroll past. */
  private static final int README_WORDS = 450;
  /**
   * The design's budget: "about 15 KB" of issue 45, with room for a few more choices; issue 46 added
   * five (durable commits, the robust statistic, the affinity swap, the a/a control's rounds, calibrate).
   */
  private static final long DESIGN_BYTES = 27_000;

  @Test
  void theReadmeFitsTwoScreensAndSendsTheRestToDocs() throws IOException {
    String readme = read(ROOT.resolve("README.md"));
    String beforeTour = readme.contains("## A tour") ? readme.substring(0, readme.indexOf("## A tour")) : readme;
    assertThat(words(beforeTour)).as("words of README.md before any tour").isLessThan(README_WORDS);
    assertThat(links(ROOT.resolve("README.md"))).as("README.md's links")
        .contains("docs/tour.md", "docs/reference.md", "docs/guarantees.md", "docs/designs.md");
  }

  @Test
  void theDesignIsTheCurrentOneAndItsEvidenceIsInTheDatedLog() throws IOException {
    Path designs = ROOT.resolve("docs/designs.md");
    assertThat(Files.size(designs)).as("bytes of docs/designs.md").isLessThan(DESIGN_BYTES);
    assertThat(links(designs)).as("designs.md's links into the log").anyMatch(l -> l.startsWith("log.md#"));
    // The log is in date order: each entry's heading starts with its date, never earlier than the last.
    String last = "";
    for (String heading : headings(ROOT.resolve("docs/log.md"))) {
      Matcher date = Pattern.compile("^(\\d{4}-\\d{2}-\\d{2})").matcher(heading);
      if (date.find()) {
        assertThat(date.group(1)).as("log.md's entry '%s' after %s", heading, last).isGreaterThanOrEqualTo(last);
        last = date.group(1);
      }
    }
    assertThat(last).as("log.md's dated entries").isNotEmpty();
  }

  @Test
  void everyRelativeLinkOfTheMarkdownReachesItsFileAndHeading() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path doc : markdown()) {
      for (String link : links(doc)) {
        if (link.matches("^[a-zA-Z][a-zA-Z+.-]*:.*")) {
          continue; // http:, https:, mailto:
        }
        String file = link.contains("#") ? link.substring(0, link.indexOf('#')) : link;
        Path target = file.isEmpty() ? doc : doc.getParent().resolve(file).normalize();
        if (!Files.exists(target)) {
          broken.add(doc + ": " + link + " (no such file)");
        } else if (link.contains("#") && target.toString().endsWith(".md")
            && !anchors(target).contains(link.substring(link.indexOf('#') + 1))) {
          broken.add(doc + ": " + link + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("broken links").isEmpty();
  }

  /** The repository's Markdown, build output and dot-folders aside. */
  private static List<Path> markdown() throws IOException {
    try (Stream<Path> files = Files.walk(ROOT)) {
      return files.filter(p -> p.toString().endsWith(".md"))
          .filter(p -> Stream.of(ROOT.relativize(p).toString().split("/"))
              .noneMatch(part -> part.equals("target") || part.startsWith(".")))
          .sorted().toList();
    }
  }

  private static List<String> links(Path doc) {
    List<String> links = new ArrayList<>();
    parse(doc).accept(new AbstractVisitor() {
      @Override
      public void visit(Link link) {
        links.add(link.getDestination());
        visitChildren(link);
      }
    });
    return links;
  }

  private static List<String> headings(Path doc) {
    List<String> headings = new ArrayList<>();
    parse(doc).accept(new AbstractVisitor() {
      @Override
      public void visit(Heading heading) {
        headings.add(text(heading));
      }
    });
    return headings;
  }

  /** The anchors GitHub gives the headings of {@code doc}: lower case, punctuation dropped, spaces as hyphens. */
  static Set<String> anchors(Path doc) {
    Set<String> anchors = new HashSet<>();
    for (String heading : headings(doc)) {
      anchors.add(heading.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
    }
    return anchors;
  }

  private static String text(Node node) {
    StringBuilder text = new StringBuilder();
    node.accept(new AbstractVisitor() {
      @Override
      public void visit(Text t) {
        text.append(t.getLiteral());
      }

      @Override
      public void visit(org.commonmark.node.Code code) {
        text.append(code.getLiteral());
      }
    });
    return text.toString();
  }

  private static Node parse(Path doc) {
    return Parser.builder().build().parse(read(doc));
  }

  private static int words(String text) {
    String stripped = text.strip();
    return stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
  }

  private static String read(Path path) {
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
