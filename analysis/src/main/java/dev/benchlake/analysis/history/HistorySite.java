package dev.benchlake.analysis.history;

import dev.benchlake.analysis.confounders.Confounder;
import dev.benchlake.analysis.html.HtmlTemplates;
import dev.benchlake.analysis.html.PageAssets;
import dev.benchlake.analysis.report.Format;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.report.ReportFolder;
import dev.benchlake.analysis.trend.SeriesAxis;
import dev.benchlake.analysis.trend.TrendJson;
import dev.benchlake.analysis.trend.TrendMarkdown;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendReport.ChangePoint;
import dev.benchlake.analysis.trend.TrendReport.StepTrend;
import dev.benchlake.analysis.trend.TrendReport.VersionFigure;
import dev.benchlake.core.raw.ResourceMetric;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code benchlake history}'s static site, from a trend of every step along a series (nightly
 * dates, or commits in order): {@code index.html} (what changed across all steps, newest first and
 * larger first, then every step with a sparkline, its latest value, its last change point and its
 * runs), a page per step under {@code steps/} (its chart, change points, every value with the runs
 * behind it and its table-maintenance marks), and {@code history.json} (trend.json's tree). Pages
 * are plain HTML with inline SVG and no script: they open from the file system in any browser,
 * and an index of 50 steps × 200 nights is a few hundred kilobytes.
 */
public final class HistorySite {
  public static final String INDEX = "index.html";
  public static final String JSON = "history.json";
  public static final String STEPS = "steps";
  private static final int SPARK_WIDTH = 240;
  private static final int SPARK_HEIGHT = 36;

  private HistorySite() {}

  /** One change point of one step, as the "what changed" list shows it. */
  record Change(String step, String href, ChangePoint point) {}

  /** Every page of the site: path relative to its folder → text. Pure. */
  public static Map<String, String> pages(TrendReport report, Provenance provenance) {
    SeriesAxis axis = SeriesAxis.of(report);
    String axisTitle = axis == null ? report.by() + " in its order (evenly spaced)" : axis.title();
    Map<String, String> pages = new LinkedHashMap<>();
    List<IndexRow> rows = new ArrayList<>();
    List<Change> changes = new ArrayList<>();
    for (int i = 0; i < report.steps().size(); i++) {
      StepTrend step = report.steps().get(i);
      String file = STEPS + "/" + fileName(i, step.step());
      Series series = Series.of(report, step, axis);
      pages.put(file, stepPage(report, provenance, step, series, axisTitle));
      step.changePoints().forEach(c -> changes.add(new Change(step.step(), file, c)));
      rows.add(indexRow(report, step, series, file));
    }
    changes.sort(Comparator.comparing((Change c) -> report.versions().indexOf(c.point().at())).reversed()
        .thenComparing(c -> -Math.abs(Math.log(c.point().ratio()))));
    pages.put(INDEX, HtmlTemplates.render("history-index", new IndexView(css(), report.metric() + " by " + report.by(),
        direction(report), lead(report, changes.size()), !report.warnings().isEmpty(), report.warnings(),
        changes.size(), !changes.isEmpty(), changes.stream().map(c -> changeRow(report, c)).toList(),
        Format.significant(report.changePointAlpha(), 3), report.by(), report.steps().size(), report.metric(), rows,
        axisTitle, provenance)));
    pages.put(JSON, TrendJson.write(report));
    return pages;
  }

  /** Writes the site into {@code folder} (each file atomically; see {@link ReportFolder}). */
  public static void write(TrendReport report, Provenance provenance, Path folder) {
    Map<String, String> pages = pages(report, provenance);
    Map<String, String> top = new LinkedHashMap<>();
    Map<String, String> steps = new LinkedHashMap<>();
    pages.forEach((path, text) -> {
      if (path.startsWith(STEPS + "/")) {
        steps.put(path.substring(STEPS.length() + 1), text);
      } else {
        top.put(path, text);
      }
    });
    ReportFolder.write(folder.resolve(STEPS), steps);
    // The index last: a site whose index exists has every page it links to.
    ReportFolder.write(folder, top);
    try (var old = Files.list(folder.resolve(STEPS))) {
      for (Path page : (Iterable<Path>) old::iterator) {
        if (!steps.containsKey(page.getFileName().toString())) {
          Files.delete(page); // a step of an earlier site that this one no longer has
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cleaning " + folder.resolve(STEPS), e);
    }
  }

  /** {@code 007-point-query_range_100.html}: the step's place, then its name with only safe characters. */
  static String fileName(int index, String step) {
    String safe = step.replaceAll("[^A-Za-z0-9._-]", "_");
    return String.format(Locale.ROOT, "%03d-%s.html", index, safe.length() > 80 ? safe.substring(0, 80) : safe);
  }

  // ---- the series of one step

  /** A step's points and change points on the site's x-axis. */
  record Series(List<SeriesSvg.Point> points, List<SeriesSvg.Change> changes) {
    static Series of(TrendReport report, StepTrend step, SeriesAxis axis) {
      Map<String, Double> xOf = xOf(report, axis);
      List<String> versions = report.versions();
      List<SeriesSvg.Point> points = new ArrayList<>();
      int segment = 0;
      for (int i = 0; i < versions.size(); i++) {
        String v = versions.get(i);
        if (i > 0 && !report.gapAfter(versions.get(i - 1)).isEmpty()) {
          segment++;
        }
        VersionFigure f = step.at(v);
        if (f.value() == null) {
          segment++;
          continue;
        }
        List<SeriesSvg.Run> runs = new ArrayList<>();
        for (int r = 0; r < f.runIds().size(); r++) {
          runs.add(new SeriesSvg.Run(f.runValues().get(r), v + ", run " + f.runIds().get(r) + ": "
              + TrendMarkdown.value(report, f.runValues().get(r))));
        }
        String interval = f.valueCi95() == null ? "" : ", 95% interval " + TrendMarkdown.value(report,
            f.valueCi95().low()) + " to " + TrendMarkdown.value(report, f.valueCi95().high());
        points.add(new SeriesSvg.Point(xOf.get(v), f.value(), v + ": " + TrendMarkdown.value(report, f.value())
            + " (geometric mean of " + f.runs() + (f.runs() == 1 ? " run" : " runs") + interval + ")", segment, runs,
            f.valueCi95() == null ? null : f.valueCi95().low(), f.valueCi95() == null ? null : f.valueCi95().high()));
      }
      List<SeriesSvg.Change> changes = new ArrayList<>();
      List<ChangePoint> cps = step.changePoints();
      for (int k = 0; k < cps.size(); k++) {
        ChangePoint c = cps.get(k);
        int at = versions.indexOf(c.at());
        if (at <= 0) {
          throw new IllegalStateException("a change point at the first value: " + c.at());
        }
        int from = k == 0 ? 0 : versions.indexOf(cps.get(k - 1).at());
        int to = k + 1 < cps.size() ? versions.indexOf(cps.get(k + 1).at()) - 1 : versions.size() - 1;
        changes.add(new SeriesSvg.Change(xOf.get(c.at()), c.before(), xOf.get(versions.get(from)), c.after(),
            xOf.get(versions.get(to)), arrow(c.ratio())));
      }
      return new Series(points, changes);
    }
  }

  /** Each value's place on the x-axis: days since the epoch along time, else its position. */
  private static Map<String, Double> xOf(TrendReport report, SeriesAxis axis) {
    Map<String, Double> xOf = new LinkedHashMap<>();
    List<String> versions = report.versions();
    for (int i = 0; i < versions.size(); i++) {
      String v = versions.get(i);
      xOf.put(v, axis != null && axis.kind().equals(SeriesAxis.TIME)
          ? Instant.parse(axis.at().get(v)).getEpochSecond() / 86_400.0 : i);
    }
    return xOf;
  }

  /**
   * A step's server CPU per operation at each value that has the step's figure: the geometric mean
   * of its runs' figures where they recorded one (loadgen's per-operation resource figures in
   * step_metrics, as the trend reads them against its base), else the value is not measured.
   *
   * @param levels each value's level, null where not measured
   */
  record CpuSeries(List<SeriesSvg.Point> points, List<SeriesSvg.Missing> missing, Map<String, Double> levels) {
    static CpuSeries of(TrendReport report, StepTrend step, SeriesAxis axis) {
      Map<String, Double> xOf = xOf(report, axis);
      List<String> versions = report.versions();
      Map<String, Double> levels = new LinkedHashMap<>();
      for (String v : versions) {
        levels.put(v, cpuAt(report, step.step(), v));
      }
      List<SeriesSvg.Point> points = new ArrayList<>();
      List<SeriesSvg.Missing> missing = new ArrayList<>();
      int segment = 0;
      for (int i = 0; i < versions.size(); i++) {
        String v = versions.get(i);
        if (i > 0 && !report.gapAfter(versions.get(i - 1)).isEmpty()) {
          segment++;
        }
        if (step.at(v).value() == null) {
          segment++;
          continue; // no run of the step here: neither chart has the value
        }
        Double level = levels.get(v);
        if (level == null) {
          segment++;
          missing.add(new SeriesSvg.Missing(xOf.get(v), v));
          continue;
        }
        points.add(new SeriesSvg.Point(xOf.get(v), level, v + ": " + cpuText(level) + " server CPU per operation"
            + " (geometric mean of its runs)", segment));
      }
      return new CpuSeries(points, missing, levels);
    }
  }

  /** The step's server CPU per operation at {@code version}: the base's level is every other value's baseline. */
  private static Double cpuAt(TrendReport report, String step, String version) {
    if (!version.equals(report.base())) {
      TrendReport.Resources r = report.resourcesAt(step, version);
      return r == null ? null : r.figures().figure(ResourceMetric.SERVER_CPU_US_PER_OP).level().candidate();
    }
    for (String other : report.versions()) {
      TrendReport.Resources r = report.resourcesAt(step, other);
      if (r != null) {
        Double base = r.figures().figure(ResourceMetric.SERVER_CPU_US_PER_OP).level().baseline();
        if (base != null) {
          return base;
        }
      }
    }
    return null;
  }

  private static String cpuText(double us) {
    return Format.significant(us, 3) + " µs";
  }

  private static String arrow(double ratio) {
    return (ratio >= 1 ? "▲ " : "▼ ") + Format.change(ratio - 1);
  }

  // ---- the index

  public record IndexView(String css, String title, String direction, String lead, boolean hasWarnings,
      List<String> warnings, int changeCount, boolean hasChanges, List<ChangeRow> changes, String changePointAlpha,
      String by, int stepCount, String metric, List<IndexRow> steps, String axisTitle, Provenance provenance) {}

  public record ChangeRow(String at, String step, String href, String change, String css, String before, String after,
      String p) {}

  public record IndexRow(String step, String href, String sparkline, String latest, String latestAt, String lastChange,
      String lastChangeCss, int runs) {}

  private static IndexRow indexRow(TrendReport report, StepTrend step, Series series, String href) {
    VersionFigure latest = null;
    for (VersionFigure f : step.versions()) {
      if (f.value() != null) {
        latest = f;
      }
    }
    ChangePoint last = step.changePoints().isEmpty() ? null : step.changePoints().get(step.changePoints().size() - 1);
    int runs = step.versions().stream().mapToInt(VersionFigure::runs).sum();
    return new IndexRow(step.step(), href, SeriesSvg.sparkline(series.points(), series.changes(), SPARK_WIDTH,
        SPARK_HEIGHT), latest == null ? "—" : TrendMarkdown.value(report, latest.value()),
        latest == null ? "—" : latest.version(), last == null ? "none" : last.at() + ": " + arrow(last.ratio()),
        last == null ? "" : css(report, last.ratio()), runs);
  }

  private static ChangeRow changeRow(TrendReport report, Change c) {
    ChangePoint p = c.point();
    return new ChangeRow(p.at(), c.step(), c.href(), arrow(p.ratio()), css(report, p.ratio()),
        TrendMarkdown.value(report, p.before()), TrendMarkdown.value(report, p.after()), Format.p(p.p()));
  }

  private static String lead(TrendReport report, int changes) {
    List<String> versions = report.versions();
    String span = versions.isEmpty() ? "no " + report.by()
        : versions.size() + " values of " + report.by() + " from " + versions.get(0) + " to "
            + versions.get(versions.size() - 1);
    String gaps = report.gaps() == null || report.gaps().isEmpty() ? ""
        : ", " + report.gaps().size() + (report.gaps().size() == 1 ? " day" : " days") + " without a run";
    return report.steps().size() + (report.steps().size() == 1 ? " step, " : " steps, ") + span + gaps + "; "
        + (changes == 0 ? "no change point." : changes + (changes == 1 ? " change point" : " change points")
            + " where a step's level shifts (below, newest first).");
  }

  // ---- a step's page

  /**
   * @param hasCpu whether a value of the step has server CPU per operation: then {@code cpuChart} charts it
   *     beside the metric, else {@code cpuNote} says it was not measured
   */
  public record StepView(String css, String title, String step, String direction, String chart, String by,
      String metric, String axisTitle, boolean hasChanges, List<StepChange> changes, List<ValueRow> rows,
      Provenance provenance, boolean hasCpu, String cpuChart, String cpuNote) {}

  public record StepChange(String at, String before, String after, String change, String css, String p) {}

  public record ValueRow(String version, String value, String cpu, String versusPrevious, String confounded,
      String runs, String rowCss) {}

  private static String stepPage(TrendReport report, Provenance provenance, StepTrend step, Series series,
      String axisTitle) {
    String chart = SeriesSvg.chart(series.points(), series.changes(), 960, 320, axisTitle,
        report.metric() + " (" + report.unit() + ")");
    CpuSeries cpu = CpuSeries.of(report, step, SeriesAxis.of(report));
    boolean hasCpu = !cpu.points().isEmpty();
    String cpuChart = hasCpu ? SeriesSvg.partialChart(cpu.points(), cpu.missing(), 960, 240, axisTitle,
        "server CPU per operation (µs)") : "";
    List<StepChange> changes = step.changePoints().stream().map(c -> new StepChange(c.at(),
        TrendMarkdown.value(report, c.before()), TrendMarkdown.value(report, c.after()), arrow(c.ratio()),
        css(report, c.ratio()), Format.p(c.p()))).toList();
    List<ValueRow> rows = new ArrayList<>();
    for (String version : report.versions()) {
      VersionFigure f = step.at(version);
      String mark = Confounder.mark(f.confounders());
      Double level = cpu.levels().get(version);
      rows.add(new ValueRow(version, f.value() == null ? "—" : TrendMarkdown.value(report, f.value()),
          f.value() == null ? "—" : level == null ? SeriesSvg.NOT_MEASURED : cpuText(level),
          f.versusPrevious() == null ? "" : f.versusPrevious().jsonName(), mark == null ? "" : "⚠ " + mark,
          String.join(", ", f.runIds()), ""));
      for (String day : report.gapAfter(version)) {
        rows.add(new ValueRow(day, "no run", "", "", "", "", "gap"));
      }
    }
    return HtmlTemplates.render("history-step", new StepView(css(), report.metric() + " by " + report.by(),
        step.step(), direction(report), chart, report.by(), report.metric(), axisTitle, !changes.isEmpty(), changes,
        rows, provenance, hasCpu, cpuChart, hasCpu ? "" : "Server CPU per operation: " + SeriesSvg.NOT_MEASURED
            + " (no run of this step recorded per-operation resource figures)."));
  }

  private static String direction(TrendReport report) {
    return report.metric() + " in " + report.unit() + ", " + (report.higherIsBetter() ? "higher" : "lower")
        + " is better.";
  }

  /** {@code better}, {@code worse} or {@code same} (within the margin), by the metric's direction. */
  private static String css(TrendReport report, double ratio) {
    if (Math.abs(Math.log(ratio)) < Math.log1p(report.settings().margin())) {
      return "same";
    }
    return (ratio > 1) == report.higherIsBetter() ? "better" : "worse";
  }

  private static String css() {
    return PageAssets.get().css();
  }
}
