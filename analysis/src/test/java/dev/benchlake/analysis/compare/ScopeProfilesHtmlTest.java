package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.html.HtmlTemplates;
import dev.benchlake.analysis.report.Scope;
import dev.benchlake.analysis.report.StepProfiles;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Issue 48 item 5: the report pages' scope block (the template compare and trend share) links each
 * profiled run by its round and side, names a run whose folder is not known with its summary's path,
 * and sets the groups' functions side by side with their difference. No Spark, no browser.
 */
class ScopeProfilesHtmlTest {
  @Test
  void theScopeBlockLinksEachProfiledRunAndTabulatesTheTopFunctions() {
    StepProfiles profiles = new StepProfiles("point-select", List.of(
        new StepProfiles.Group("baseline", "1000 Hz", List.of(new StepProfiles.Run("round 1, side a",
            "file:///s/runs/r1-a/profiles/point-select.txt", "file:///s/runs/r1-a/profiles/point-select.perf.data",
            "profiles/point-select.txt"))),
        new StepProfiles.Group("candidate", "1000 Hz", List.of(new StepProfiles.Run("<b>r9</b>", null, null,
            "profiles/point-select.txt")))),
        List.of(new StepProfiles.Function("postgres", "ExecScan", List.of("25.0%", "10.0%"), "-15.0 pp")));
    Scope scope = new Scope(List.of(new Scope.Fact("design", "design", "duet")), List.of("baseline", "candidate"),
        List.of(), List.of(), List.of(profiles));
    String html = HtmlTemplates.render("scope", Map.of("scope", scope));
    assertThat(html).contains("<h3 id=\"profiles\">Server CPU profiles</h3>",
        "<li><code>baseline</code> (1 run at 1000 Hz): <a href=\"file:///s/runs/r1-a/profiles/point-select.txt\">"
            + "round 1, side a</a> </li>",
        "&lt;b&gt;r9&lt;/b&gt; (profiles/point-select.txt)",
        "<th class=\"text\"><code>ExecScan</code> (postgres)</th><td>25.0%</td><td>10.0%</td><td>-15.0 pp</td>",
        "<th>difference</th>");
  }
}
