package dev.benchlake.analysis.trend;

import static dev.benchlake.analysis.report.RenderedMarkdown.escapedControls;
import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.MarkdownProperties;
import dev.benchlake.analysis.report.RenderedMarkdown;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.core.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.commonmark.node.StrongEmphasis;

/**
 * trend.md under generated hostile strings ({@value #TRIES} reports, fixed seed) as the step, the
 * two versions (the base among them), the {@code --by} key, the run ids, the step group (from a
 * groups file) and the {@code --where} selector, rendered by a real CommonMark parser with GFM
 * tables: no string becomes HTML, a link or emphasis; the title, the group's heading, the tables'
 * headers and the runs table show each string itself; every table row keeps its cells; every note
 * and method stays one list item.
 */
class TrendMarkdownProperties {
  static final int TRIES = 300;
  private static final String SEED = "20261203";
  private static final Path GROUPS = groupsFolder();

  @Provide
  Arbitrary<String> hostile() {
    // A report's labels are never blank: versions and --by are trimmed (String.trim), steps and run
    // ids checked.
    return MarkdownProperties.hostile().filter(s -> !s.trim().isEmpty());
  }

  @Property(tries = TRIES, seed = SEED)
  void everyLabelReadsAsItselfAndNoneBecomesMarkup(@ForAll("hostile") String step, @ForAll("hostile") String base,
      @ForAll("hostile") String version, @ForAll("hostile") String by, @ForAll("hostile") String run,
      @ForAll("hostile") String group, @ForAll("hostile") String where) throws IOException {
    String key = by.trim();
    String v1 = base.trim();
    String v2 = version.trim();
    Assume.that(!v1.equals(v2));
    String groupName = group.trim();
    Map<String, List<String>> runs = new TreeMap<>();
    List<Observation> observations = new ArrayList<>();
    double[][] qps = {{100, 101, 99}, {150, 149, 151}};
    String[] versions = {v1, v2};
    for (int v = 0; v < 2; v++) {
      for (int r = 0; r < 3; r++) {
        String id = run + "#" + v + r;
        runs.computeIfAbsent(versions[v], k -> new ArrayList<>()).add(id);
        observations.add(new Observation(id, versions[v], step, qps[v][r]));
        observations.add(new Observation(id, versions[v], "plain-step", 100 + r));
      }
    }
    Path groups = Files.createTempFile(GROUPS, "groups", ".json");
    Files.writeString(groups, Json.mapper().writeValueAsString(Map.of("steps", Map.of(step, groupName))));
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of(key, v1, "qps")
        .withGroups(StepGroups.read(groups)).withWhere(where), List.of());
    Files.delete(groups);
    String md = TrendMarkdown.write(report);
    RenderedMarkdown rendered = RenderedMarkdown.of(md);

    assertThat(rendered.markup()).as("HTML, links, images in\n%s", md).isEmpty();
    assertThat(rendered.count(n -> n instanceof StrongEmphasis)).as("only the flags' words are bold")
        .isEqualTo(report.flags().size());
    assertThat(rendered.headings(1)).containsExactly("benchlake trend: qps by " + escapedControls(key)
        + ", relative to " + escapedControls(v1));
    String shownGroup = escapedControls(groupName.substring(0, 1).toUpperCase(Locale.ROOT) + groupName.substring(1));
    assertThat(rendered.headings(2)).as(md).contains(shownGroup);
    List<List<List<String>>> tables = rendered.tables();
    for (List<List<String>> table : tables) {
      assertThat(table).as("rows of %s", table.get(0)).allSatisfy(row -> assertThat(row).hasSameSizeAs(table.get(0)));
    }
    // The group's table: its versions as the header, the step's name in its first cell.
    List<String> header = new ArrayList<>(List.of("step"));
    report.versions().forEach(v -> header.add(escapedControls(v)));
    assertThat(report.versions()).containsExactlyInAnyOrder(v1, v2);
    assertThat(tables).anySatisfy(t -> {
      assertThat(t.get(0)).containsExactlyElementsOf(header);
      assertThat(t.get(1).get(0)).startsWith(escapedControls(step));
    });
    // The runs: --by as the header, each version and its runs.
    List<List<String>> runsTable = tables.get(tables.size() - 1);
    assertThat(runsTable.get(0)).containsExactly(escapedControls(key), "runs");
    assertThat(runsTable.subList(1, runsTable.size())).extracting(row -> row.get(0))
        .containsExactlyElementsOf(report.versions().stream().map(RenderedMarkdown::escapedControls).toList());
    assertThat(runsTable.get(1).get(1)).isEqualTo(String.join(", ",
        report.runs().get(report.versions().get(0)).stream().map(RenderedMarkdown::escapedControls).toList()));
    assertThat(rendered.codeSpans()).contains(escapedControls(where));
    // The three settings lines, then one item per note and per method.
    assertThat(rendered.listItems()).as(md).hasSize(3 + report.messages().size() + report.methods().size());
    assertThat(rendered.listItems()).containsSubsequence(report.methods().stream()
        .map(RenderedMarkdown::escapedControls).toList());
  }

  private static Path groupsFolder() {
    try {
      Path folder = Files.createTempDirectory("benchlake-trend-markdown");
      folder.toFile().deleteOnExit();
      return folder;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
