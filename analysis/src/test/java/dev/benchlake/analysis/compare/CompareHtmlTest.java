package dev.benchlake.analysis.compare;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.testing.BrowserPage;
import dev.benchlake.analysis.testing.ReferenceCases;
import dev.benchlake.analysis.testing.WarehouseFixture;
import dev.benchlake.warehouse.spark.SparkTestBase;
import dev.benchlake.warehouse.Warehouse;
import dev.benchlake.warehouse.kernel.KernelWarehouse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** report.html in a real browser: the charts draw, no script fails, hostile text stays text. */
@org.junit.jupiter.api.Tag("integration")
class CompareHtmlTest extends SparkTestBase {
  private static final String HOSTILE_LABEL = "<script>alert(1)</script>";
  private static final String HOSTILE_ERROR = "<img src=x onerror=\"document.body.setAttribute('data-pwned','1')\">";

  @TempDir
  Path dir;

  @Test
  void theTwoStepReportRendersEveryChart() throws Exception {
    Warehouse warehouse = ReferenceCases.warehouse(spark, ReferenceCases.named("two_steps"));
    ComparisonReport report = Compare.run(warehouse, CompareRequest.of("os=linux", "os=windows")
        .withOutliers(OutlierPolicy.parse("iqr")));
    Path out = Path.of("target", "reports", "compare");
    CompareFiles.write(report, Provenance.of(KernelWarehouse.of(warehouse), "compare", List.of("--warehouse", warehouse.root(),
        "--baseline", "os=linux", "--candidate", "os=windows", "--outliers", "iqr", "--out", out.toString())), out);
    String html = Files.readString(out.resolve(CompareFiles.HTML), StandardCharsets.UTF_8);
    assertThat(html).doesNotContain("src=\"http").doesNotContain("href=\"http").contains("vega-lite");

    BrowserPage page = BrowserPage.render(out.resolve(CompareFiles.HTML), "compare-report", 1366, 5200);
    // The forest plot, then per step: ECDF, histogram, runs and errors (both steps have failed tasks).
    page.assertRenderedCleanly(9);
    assertThat(page.markup()).contains("Step <code>read</code>").contains("slower")
        .contains("runs table at Delta version <code>" + KernelWarehouse.of(warehouse).version() + "</code>")
        .contains("benchlake compare --warehouse");
    // The forest plot's axis and each card say which side of 1 is better.
    assertThat(page.markup()).contains("θ, candidate / baseline (log scale): below 1 is better (lower latency)")
        .contains("<span class=\"card-detail card-direction\">below 1 is better (lower latency)</span>");
    // What was measured (issue 46.1): CSV runs record no design or durability, and the page says so.
    assertThat(page.markup()).contains("<h2>Scope</h2>").contains("<li>design: not recorded</li>")
        .contains("<th class=\"text\">durability</th><td class=\"text\">not recorded</td>");
  }

  @Test
  void hostileLabelsStepsAndErrorsRenderAsText() throws Exception {
    List<WarehouseFixture.Run> runs = new ArrayList<>();
    List<WarehouseFixture.Task> tasks = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(7);
    for (String os : List.of("linux", "windows")) {
      for (int r = 1; r <= 3; r++) {
        String id = os.charAt(0) + "-" + r + "-" + HOSTILE_LABEL;
        runs.add(new WarehouseFixture.Run(id, Map.of("os", os, "owner", HOSTILE_LABEL)));
        long clock = 1_700_000_000_000_000L;
        for (int i = 0; i < 60; i++) {
          long latencyNs = (long) (1_000_000 * Math.exp(random.nextGaussian() * 0.3)) * (os.equals("linux") ? 1 : 2);
          clock += latencyNs / 1000;
          tasks.add(new WarehouseFixture.Task(id, HOSTILE_LABEL, latencyNs, true, false, null, null, clock - latencyNs / 1000, clock));
        }
        tasks.add(WarehouseFixture.Task.failed(id, HOSTILE_LABEL, null, HOSTILE_ERROR));
      }
    }
    Warehouse warehouse = WarehouseFixture.write(spark, dir.resolve("warehouse").toString(), runs, tasks);
    String baseline = "os=linux,owner=" + HOSTILE_LABEL;
    ComparisonReport report = Compare.run(warehouse, CompareRequest.of(baseline, "os=windows"));
    Path out = Path.of("target", "reports", "compare-hostile");
    CompareFiles.write(report, Provenance.of(KernelWarehouse.of(warehouse), "compare", List.of("--baseline", baseline, "--candidate", "os=windows")), out);

    BrowserPage page = BrowserPage.render(out.resolve(CompareFiles.HTML), "compare-hostile", 1366, 3000);
    page.assertRenderedCleanly(5);
    String dom = page.markup();
    assertThat(dom).as("the hostile label shows as text").contains("&lt;script&gt;alert(1)&lt;/script&gt;");
    assertThat(dom).as("the hostile error message shows as text").contains("&lt;img src=x onerror=");
    assertThat(dom).as("no injected element").doesNotContain("<script>alert(1)").doesNotContain("<img")
        .doesNotContainPattern("<body[^>]*data-pwned");
    assertThat(BrowserPage.countOf(page.dom(), "<script")).as("only the page's own scripts").isEqualTo(7);
  }
}
