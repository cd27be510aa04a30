package dev.benchlake.ingest;

import dev.benchlake.ingest.parse.ChunkAccounts.ChunkKey;
import dev.benchlake.ingest.parse.ChunkJob;
import dev.benchlake.ingest.source.ScannedFile;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.Row;
import org.apache.spark.util.CollectionAccumulator;

/**
 * The progress of an ingest's one pass (the Spark job that parses every chunk): bytes and lines
 * parsed of the whole input, the rate and the time left. Each chunk's task reports its key when it
 * is done (a Spark accumulator, which reaches the driver as the task ends); the driver knows every
 * chunk's bytes and lines from its own read of the files, so the figures are exact per chunk.
 *
 * <p>On a terminal a live line is redrawn every half second; otherwise (output piped, logs, CI) a
 * plain line goes out every {@value #DEFAULT_INTERVAL_S} s ({@value #INTERVAL_PROPERTY}), so a long
 * ingest is never silent and logs stay free of carriage returns. A pass shorter than one interval
 * prints nothing.
 */
final class ParseProgress implements AutoCloseable {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(ParseProgress.class);
  /** Seconds between two progress lines when not on a terminal. */
  static final String INTERVAL_PROPERTY = "benchlake.ingest.progress.interval.s";
  static final double DEFAULT_INTERVAL_S = 5;
  private static final double LIVE_INTERVAL_S = 0.5;

  private final Map<ChunkKey, long[]> chunkSizes;
  private final long totalBytes;
  private final long totalLines;
  private final CollectionAccumulator<ChunkKey> done;
  private final Consumer<String> lines;
  private final Consumer<String> live;
  private final long startNs = System.nanoTime();
  private final ScheduledExecutorService ticker;
  private final Set<ChunkKey> counted = new HashSet<>();
  private long bytesDone;
  private long linesDone;

  /**
   * Starts showing the progress of parsing {@code jobs}.
   *
   * @param files the scanned files of the jobs, by path
   * @param lines where plain progress lines go (stderr) when not on a terminal
   * @param live where the live line is drawn on a terminal (each call redraws it), or null
   */
  static ParseProgress start(SparkContext spark, List<ChunkJob> jobs, Map<String, ScannedFile> files, Consumer<String> lines,
      Consumer<String> live) {
    CollectionAccumulator<ChunkKey> done = spark.collectionAccumulator("ingest chunks parsed");
    return new ParseProgress(jobs, files, done, lines, live);
  }

  private ParseProgress(List<ChunkJob> jobs, Map<String, ScannedFile> files, CollectionAccumulator<ChunkKey> done,
      Consumer<String> lines, Consumer<String> live) {
    this.done = done;
    this.lines = lines;
    this.live = live;
    this.chunkSizes = new HashMap<>();
    long bytes = 0;
    long lineCount = 0;
    for (ChunkJob job : jobs) {
      long[] size = chunkSize(files.get(job.path()), job.chunk());
      chunkSizes.put(ChunkKey.of(job), size);
      bytes += size[0];
      lineCount += size[1];
    }
    this.totalBytes = bytes;
    this.totalLines = lineCount;
    double intervalS = live != null ? LIVE_INTERVAL_S : Double.parseDouble(
        System.getProperty(INTERVAL_PROPERTY, Double.toString(DEFAULT_INTERVAL_S)));
    long intervalMs = Math.max(10, Math.round(intervalS * 1000));
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "ingest-progress");
      t.setDaemon(true);
      return t;
    });
    ticker.scheduleAtFixedRate(this::tick, intervalMs, intervalMs, TimeUnit.MILLISECONDS);
  }

  /** The accumulator the chunk tasks report to (serializable, for the executors). */
  CollectionAccumulator<ChunkKey> doneAccumulator() {
    return done;
  }

  /** {@code rows}, reporting {@code job} done to {@code done} once they are all consumed. */
  static Iterator<Row> reporting(ChunkJob job, Iterator<Row> rows, CollectionAccumulator<ChunkKey> done) {
    return new Iterator<>() {
      private boolean reported;

      @Override
      public boolean hasNext() {
        boolean more = rows.hasNext();
        if (!more && !reported) {
          reported = true;
          done.add(ChunkKey.of(job));
        }
        return more;
      }

      @Override
      public Row next() {
        return rows.next();
      }
    };
  }

  /** A chunk's bytes and lines: the lines that start in it (see {@link ScannedFile.Chunk}). */
  private static long[] chunkSize(ScannedFile file, ScannedFile.Chunk chunk) {
    List<ScannedFile.Chunk> chunks = file.chunks();
    int i = chunks.indexOf(chunk);
    long nextFirstLine = i + 1 < chunks.size() ? chunks.get(i + 1).firstLineNo() : file.lines() + 1;
    return new long[] {Math.min(chunk.end(), file.bytes()) - chunk.start(), Math.max(0, nextFirstLine - chunk.firstLineNo())};
  }

  private synchronized void tick() {
    try {
      show();
    } catch (RuntimeException e) {
      // A scheduled task that throws is never run again: say why the progress line stops.
      LOG.warn("ingest progress: {}", e.toString());
      throw e;
    }
  }

  private void show() {
    // A retried task reports its chunk again: each chunk counts once.
    for (ChunkKey key : done.value()) {
      if (counted.add(key)) {
        long[] size = chunkSizes.getOrDefault(key, new long[2]);
        bytesDone += size[0];
        linesDone += size[1];
      }
    }
    String line = line(bytesDone, totalBytes, linesDone, totalLines, (System.nanoTime() - startNs) / 1e9);
    if (live != null) {
      live.accept(line);
    } else {
      lines.accept(line);
    }
  }

  /**
   * One progress line, e.g. {@code parsing: 52.4 MB of 150.0 MB (34 %), 700,000 of 2,000,000 lines,
   * 10.5 MB/s, about 10 s left}. Pure: figures in, text out.
   */
  static String line(long bytesDone, long totalBytes, long linesDone, long totalLines, double elapsedS) {
    double fraction = totalBytes == 0 ? 1 : (double) bytesDone / totalBytes;
    double rate = elapsedS > 0 ? bytesDone / elapsedS : 0;
    String left = bytesDone == 0 || rate <= 0 ? "time left not known yet"
        : "about " + duration((totalBytes - bytesDone) / rate) + " left";
    return String.format(Locale.ROOT, "parsing: %s of %s (%d %%), %,d of %,d lines, %s/s, %s", bytes(bytesDone),
        bytes(totalBytes), (long) Math.floor(fraction * 100), linesDone, totalLines, bytes(Math.round(rate)), left);
  }

  private static String bytes(long n) {
    return n < 1_000_000 ? String.format(Locale.ROOT, "%.1f kB", n / 1e3) : String.format(Locale.ROOT, "%.1f MB", n / 1e6);
  }

  private static String duration(double s) {
    long whole = (long) Math.ceil(s);
    return whole < 120 ? whole + " s" : whole / 60 + " min " + whole % 60 + " s";
  }

  /** Stops the line; a live line is ended so the next output starts on its own line. */
  @Override
  public synchronized void close() {
    ticker.shutdownNow();
    if (live != null) {
      live.accept(null);
    }
  }
}
