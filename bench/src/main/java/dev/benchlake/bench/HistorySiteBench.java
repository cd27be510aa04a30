package dev.benchlake.bench;

import dev.benchlake.analysis.history.HistorySite;
import dev.benchlake.analysis.report.Provenance;
import dev.benchlake.analysis.trend.TrendAnalysis;
import dev.benchlake.analysis.trend.TrendAnalysis.Observation;
import dev.benchlake.analysis.trend.TrendReport;
import dev.benchlake.analysis.trend.TrendRequest;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * bench/history.sh's site: a seeded nightly series of DATES nights × STEPS steps (one run a night,
 * 2 % noise, every fifth step shifting by 15 % at a step-specific night, a missing night every 30),
 * analysed as {@code history --by date} does and written with {@link HistorySite}. Prints the
 * analysis and writing times; the script times the pages' loads in Chromium.
 *
 * <pre>HistorySiteBench OUT_DIR [DATES [STEPS]]</pre>
 */
public final class HistorySiteBench {
  private HistorySiteBench() {}

  public static void main(String[] args) {
    Path out = Path.of(args[0]);
    int dates = args.length > 1 ? Integer.parseInt(args[1]) : 200;
    int steps = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    SplittableRandom random = new SplittableRandom(29);
    List<Observation> observations = new ArrayList<>();
    Map<String, List<String>> runs = new TreeMap<>();
    LocalDate first = LocalDate.of(2026, 1, 1);
    for (int night = 0; night < dates; night++) {
      if (night % 30 == 29) {
        continue;
      }
      String date = first.plusDays(night).toString();
      String run = "run-" + night;
      runs.put(date, List.of(run));
      for (int s = 0; s < steps; s++) {
        boolean shifted = s % 5 == 0 && night >= dates / 4 + (s * 7) % (dates / 2);
        double gaussian = Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
        observations.add(new Observation(run, date, String.format(Locale.ROOT, "step-%02d", s),
            1000 * (shifted ? 0.85 : 1) * Math.exp(0.02 * gaussian)));
      }
    }
    long start = System.nanoTime();
    TrendReport report = TrendAnalysis.analyse(observations, runs, TrendRequest.of(TrendRequest.BY_DATE, null, "qps"),
        List.of());
    long analysed = System.nanoTime();
    HistorySite.write(report, new Provenance("HistorySiteBench", "synthetic", 0, "bench"), out);
    long written = System.nanoTime();
    long changes = report.steps().stream().mapToLong(s -> s.changePoints().size()).sum();
    System.out.printf(Locale.ROOT, "site: %d dates (%d with a run) x %d steps, %d change points; analysis %.1f s, "
        + "writing %.2f s%n", dates, runs.size(), steps, changes, (analysed - start) / 1e9, (written - analysed) / 1e9);
  }
}
