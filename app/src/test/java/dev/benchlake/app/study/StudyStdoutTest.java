package dev.benchlake.app.study;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.compare.ComparisonReport;
import dev.benchlake.analysis.report.CutShort;
import dev.benchlake.analysis.stats.StatisticsSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A study command's stdout says each thing once (issue 49: study ab printed its cut-short sentence twice). */
class StudyStdoutTest {
  @Test
  void aStudyCutShortSaysSoOnceAtTheHeadOfItsAnswer() {
    CutShort cut = new CutShort(2, 5, false, "side b (r3-b on CPUs 1) was killed (signal 9)");
    ComparisonReport report = new ComparisonReport(null, StatisticsSettings.DEFAULTS, "none", null, "duet", List.of(),
        List.of(), List.of(), List.of(), List.of(), null, null, null, null).withCutShort(cut);
    Study.Outcome<ComparisonReport> outcome = new Study.Outcome<>("ab-1", List.of(), null, null, report, cut);
    StringWriter out = new StringWriter();
    PrintWriter stdout = new PrintWriter(out);
    Study.printStart(stdout, outcome, Path.of("/tmp/study-ab"));
    Study.printAnswer(stdout, report);
    stdout.flush();
    String text = out.toString();
    assertThat(text.split("Cut short", -1)).as("'Cut short' in %s", text).hasSize(2);
    assertThat(text.lines().toList()).containsExactly("Study ab-1: 0 runs in /tmp/study-ab/runs",
        cut.sentence() + " Calls: no calls (0 steps).");
  }
}
