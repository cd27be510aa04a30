package dev.benchlake.analysis.history;

import dev.benchlake.analysis.html.HtmlTemplates;
import java.util.List;
import java.util.Locale;

/**
 * A step's series as inline SVG, drawn in code so that a history site of 50 steps × 200 nights
 * loads without a chart library: a sparkline for the index (the line and the change points'
 * rules), or a chart with axes for a step's page: each run as a small grey dot, the line through
 * each value's geometric mean (a point with its value as a tooltip) and, where there are repeats,
 * their 95 % interval as a bar; the levels either side of each change point, its ratio as a label.
 * The line breaks where the series has a gap ({@link Point#segment}). Every text from the data is
 * HTML-escaped.
 */
final class SeriesSvg {
  /**
   * One value of --by: its place on the x-axis (days since the epoch, or a position), its geometric
   * mean, label and line piece, its runs, and the 95 % interval of the mean (null: fewer than two runs).
   */
  record Point(double x, double y, String label, int segment, List<Run> runs, Double low, Double high) {
    /** A point without its runs: what a sparkline draws. */
    Point(double x, double y, String label, int segment) {
      this(x, y, label, segment, List.of(), null, null);
    }
  }

  /** One run's figure at a point, and what its tooltip says. */
  record Run(double y, String label) {}

  /** A change point: where the new level starts, the levels either side and their spans, and its label. */
  record Change(double x, double before, double beforeFrom, double after, double afterTo, String label) {}

  /** A value whose runs did not measure the figure: a rule at its place, never a point at 0. */
  record Missing(double x, String label) {}

  /** What a chart says of a value whose runs did not measure its figure. */
  static final String NOT_MEASURED = "not measured";

  private static final String LINE = "#2b6cb0";
  private static final String CHANGE = "#c2410c";
  private static final String LEVEL = "#718096";
  private static final String RUN = "#4a5568";
  private static final String INTERVAL = "#90cdf4";
  private static final String MISSING = "#a0aec0";

  private SeriesSvg() {}

  /** A sparkline: the line and the change points, no axes. */
  static String sparkline(List<Point> points, List<Change> changes, int width, int height) {
    return draw(points, changes, List.of(), width, height, 2, 2, 2, 2, false, null, null);
  }

  /** A chart with axes: {@code xTitle} under the x-axis, {@code yTitle} beside the y-axis. */
  static String chart(List<Point> points, List<Change> changes, int width, int height, String xTitle, String yTitle) {
    return draw(points, changes, List.of(), width, height, 64, 16, 24, 56, true, xTitle, yTitle);
  }

  /**
   * A chart with axes of a figure some values did not measure: each {@code missing} value a dashed
   * grey rule across the plot at its place ({@value #NOT_MEASURED}, with its label as a tooltip), so
   * that the x-axis spans the same values as the step's other chart and no value reads as 0.
   */
  static String partialChart(List<Point> points, List<Missing> missing, int width, int height, String xTitle,
      String yTitle) {
    return draw(points, List.of(), missing, width, height, 64, 16, 24, 56, true, xTitle, yTitle);
  }

  private static String draw(List<Point> points, List<Change> changes, List<Missing> missing, int width, int height,
      int left, int right, int top, int bottom, boolean axes, String xTitle, String yTitle) {
    StringBuilder svg = new StringBuilder(256 + points.size() * (axes ? 120 : 16));
    svg.append(String.format(Locale.ROOT, "<svg class=\"series\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
        + "height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", width, height, width, height));
    if (points.isEmpty()) {
      return svg.append("</svg>").toString();
    }
    double xMin = points.get(0).x();
    double xMax = points.get(points.size() - 1).x();
    for (Missing m : missing) {
      xMin = Math.min(xMin, m.x());
      xMax = Math.max(xMax, m.x());
    }
    double yMin = Double.POSITIVE_INFINITY;
    double yMax = Double.NEGATIVE_INFINITY;
    for (Point p : points) {
      yMin = Math.min(yMin, p.y());
      yMax = Math.max(yMax, p.y());
      if (axes) {
        for (Run r : p.runs()) {
          yMin = Math.min(yMin, r.y());
          yMax = Math.max(yMax, r.y());
        }
        if (p.low() != null) {
          yMin = Math.min(yMin, p.low());
          yMax = Math.max(yMax, p.high());
        }
      }
    }
    for (Change c : changes) {
      yMin = Math.min(yMin, Math.min(c.before(), c.after()));
      yMax = Math.max(yMax, Math.max(c.before(), c.after()));
    }
    double pad = yMax > yMin ? (yMax - yMin) * 0.08 : Math.max(Math.abs(yMax) * 0.05, 1e-9);
    Scale sx = new Scale(xMin, xMax == xMin ? xMin + 1 : xMax, left, width - right);
    Scale sy = new Scale(yMin - pad, yMax + pad, height - bottom, top);
    if (axes) {
      axes(svg, sx, sy, width, height, left, right, top, bottom, points, xTitle, yTitle);
    }
    for (Missing m : missing) {
      svg.append("<line class=\"not-measured\"").append(attributes(sx.at(m.x()), top, sx.at(m.x()), height - bottom,
          MISSING, 1, "2 3")).append("><title>").append(HtmlTemplates.escape(m.label() + ": " + NOT_MEASURED)).append("</title></line>");
    }
    if (!missing.isEmpty()) {
      svg.append(String.format(Locale.ROOT, "<text class=\"not-measured\" x=\"%d\" y=\"%d\" font-size=\"10\" "
          + "text-anchor=\"end\" fill=\"#718096\">dashed grey: %s</text>", width - right, top - 8, NOT_MEASURED));
    }
    for (Change c : changes) {
      svg.append(line(sx.at(c.beforeFrom()), sy.at(c.before()), sx.at(c.x()), sy.at(c.before()), LEVEL, 2, null));
      svg.append(line(sx.at(c.x()), sy.at(c.after()), sx.at(c.afterTo()), sy.at(c.after()), LEVEL, 2, null));
      svg.append(line(sx.at(c.x()), top, sx.at(c.x()), height - bottom, CHANGE, axes ? 2 : 1.2, "4 3"));
      if (axes) {
        svg.append(String.format(Locale.ROOT, "<text class=\"change\" x=\"%.1f\" y=\"%d\" fill=\"%s\" font-size=\"11\" "
            + "font-weight=\"600\">%s</text>", sx.at(c.x()) + 3, top + 11, CHANGE, HtmlTemplates.escape(c.label())));
      }
    }
    if (axes) {
      for (Point p : points) {
        if (p.low() != null) {
          svg.append("<line class=\"interval\"").append(line(sx.at(p.x()), sy.at(p.low()), sx.at(p.x()),
              sy.at(p.high()), INTERVAL, 3, null).substring("<line".length()));
        }
        for (Run r : p.runs()) {
          svg.append(String.format(Locale.ROOT, "<circle class=\"run\" cx=\"%.1f\" cy=\"%.1f\" r=\"1.8\" "
              + "fill=\"%s\" fill-opacity=\"0.55\"><title>%s</title></circle>", sx.at(p.x()), sy.at(r.y()), RUN,
              HtmlTemplates.escape(r.label())));
        }
      }
    }
    StringBuilder path = new StringBuilder();
    int segment = Integer.MIN_VALUE;
    for (Point p : points) {
      path.append(p.segment() == segment ? " L" : " M").append(fixed(sx.at(p.x()))).append(',').append(fixed(sy.at(p.y())));
      segment = p.segment();
    }
    svg.append("<path class=\"line\" fill=\"none\" stroke=\"").append(LINE).append("\" stroke-width=\"")
        .append(axes ? "1.5" : "1.2").append("\" d=\"").append(path.toString().trim()).append("\"/>");
    if (axes) {
      for (Point p : points) {
        svg.append(String.format(Locale.ROOT, "<circle class=\"point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2.6\" fill=\"%s\">"
            + "<title>%s</title></circle>", sx.at(p.x()), sy.at(p.y()), LINE, HtmlTemplates.escape(p.label())));
      }
    }
    return svg.append("</svg>").toString();
  }

  private static void axes(StringBuilder svg, Scale sx, Scale sy, int width, int height, int left, int right, int top,
      int bottom, List<Point> points, String xTitle, String yTitle) {
    int y0 = height - bottom;
    svg.append(line(left, y0, width - right, y0, "#a0aec0", 1, null));
    svg.append(line(left, top, left, y0, "#a0aec0", 1, null));
    for (double tick : ticks(sy.from, sy.to)) {
      double y = sy.at(tick);
      svg.append(line(left - 4, y, width - right, y, "#edf2f7", 1, null));
      svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"10\" text-anchor=\"end\" "
          + "fill=\"#4a5568\">%s</text>", left - 6, y + 3, number(tick)));
    }
    // The first, middle and last points' labels: the values of --by they stand for.
    int n = points.size();
    for (int i : n < 3 ? new int[] {0, n - 1} : new int[] {0, n / 2, n - 1}) {
      Point p = points.get(i);
      String anchor = i == 0 ? "start" : i == n - 1 ? "end" : "middle";
      svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" text-anchor=\"%s\" "
          + "fill=\"#4a5568\">%s</text>", sx.at(p.x()), y0 + 14, anchor, HtmlTemplates.escape(p.label().split(": ")[0])));
    }
    svg.append(String.format(Locale.ROOT, "<text class=\"x-title\" x=\"%.1f\" y=\"%d\" font-size=\"11\" "
        + "text-anchor=\"middle\" fill=\"#2d3748\">%s</text>", (left + width - right) / 2.0, height - 10,
        HtmlTemplates.escape(xTitle)));
    svg.append(String.format(Locale.ROOT, "<text class=\"y-title\" transform=\"translate(14,%.1f) rotate(-90)\" "
        + "font-size=\"11\" text-anchor=\"middle\" fill=\"#2d3748\">%s</text>", (top + y0) / 2.0,
        HtmlTemplates.escape(yTitle)));
  }

  /** Up to about five round values within [from, to]. */
  static List<Double> ticks(double from, double to) {
    double span = to - from;
    if (!(span > 0)) {
      return List.of(from);
    }
    double step = Math.pow(10, Math.floor(Math.log10(span / 4)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (span / (step * m) <= 5) {
        step *= m;
        break;
      }
    }
    java.util.ArrayList<Double> ticks = new java.util.ArrayList<>();
    for (double t = Math.ceil(from / step) * step; t <= to + step * 1e-9; t += step) {
      ticks.add(Math.abs(t) < step * 1e-9 ? 0 : t);
    }
    return ticks;
  }

  private static String number(double value) {
    return new java.math.BigDecimal(value).round(new java.math.MathContext(4)).stripTrailingZeros().toPlainString();
  }

  private static String line(double x1, double y1, double x2, double y2, String color, double width, String dash) {
    return "<line" + attributes(x1, y1, x2, y2, color, width, dash) + "/>";
  }

  private static String attributes(double x1, double y1, double x2, double y2, String color, double width,
      String dash) {
    return String.format(Locale.ROOT, " x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
        + "stroke-width=\"%s\"%s", x1, y1, x2, y2, color, number(width),
        dash == null ? "" : " stroke-dasharray=\"" + dash + "\"");
  }

  private static String fixed(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  /** A linear map from data to pixels. */
  private record Scale(double from, double to, double pixelFrom, double pixelTo) {
    double at(double v) {
      return pixelFrom + (v - from) / (to - from) * (pixelTo - pixelFrom);
    }
  }
}
