package dev.benchlake.warehouse.fs;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lock on S3 held by one process at a time, and taken back from a holder that died: a lease,
 * built on S3's one atomic write, a PUT with {@code If-None-Match: *} ({@link S3PutIfAbsent}).
 *
 * <p>The lock is a folder of epochs. Holding it is having created epoch {@code n}
 * ({@code <folder>/<n>}, 20 digits, so that names sort as numbers) while {@code n + 1} does not
 * exist. A holder writes {@code <n>.beat} every quarter of its lease (the lease it states in
 * epoch n) and, on release, {@code <n>.free}. The lock is free when there is no epoch, when the
 * last one is freed, or when its holder's beat has not changed for a whole lease by the clock of
 * the one waiting (so clocks of different machines never meet). Whoever finds it free creates the
 * next epoch, and the store gives that name to one of them only; nothing is ever overwritten or
 * deleted that another holder could still rely on (the new holder deletes only earlier epochs).
 *
 * <p>Like every lease, it holds only while a holder beats: a holder stalled longer than its lease
 * (a pause of the JVM, a network cut) can find its lock taken; it says so in the log. benchlake's
 * lease is 60 s ({@value #LEASE_SECONDS_KEY} changes it: a killed ingest's locks come back after
 * one lease).
 */
public final class S3Lease implements Closeable {
  /** Hadoop setting (as {@code --conf spark.hadoop.benchlake.lock.lease.seconds=N}): the lease a holder states. */
  public static final String LEASE_SECONDS_KEY = "benchlake.lock.lease.seconds";
  private static final long DEFAULT_LEASE_SECONDS = 60;
  private static final long POLL_MS = 500;
  private static final Logger LOG = LoggerFactory.getLogger(S3Lease.class);
  private static final ScheduledExecutorService BEATS = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "benchlake-s3-lock-beats");
    t.setDaemon(true);
    return t;
  });

  private final FileSystem fs;
  private final Path folder;
  private final long epoch;
  private final AtomicLong beats = new AtomicLong();
  private final ScheduledFuture<?> beating;

  private S3Lease(FileSystem fs, Path folder, long epoch, long leaseMs) {
    this.fs = fs;
    this.folder = folder;
    this.epoch = epoch;
    this.beating = BEATS.scheduleWithFixedDelay(this::beat, leaseMs / 4, leaseMs / 4, TimeUnit.MILLISECONDS);
  }

  /** Takes the lock of {@code folder}, waiting while another process holds it. */
  public static S3Lease acquire(FileSystem fs, Path folder) throws IOException {
    long leaseMs = TimeUnit.SECONDS.toMillis(fs.getConf().getLong(LEASE_SECONDS_KEY, DEFAULT_LEASE_SECONDS));
    String beatSeen = null;
    long beatSeenAt = 0;
    long lastSeen = -1;
    boolean said = false;
    while (true) {
      long last = lastEpoch(fs, folder);
      boolean free;
      if (last == 0 || fs.exists(name(folder, last, ".free"))) {
        free = true;
      } else {
        String beat = beatOf(fs, name(folder, last, ".beat"));
        long now = System.nanoTime();
        if (last != lastSeen || !beat.equals(beatSeen)) {
          lastSeen = last;
          beatSeen = beat;
          beatSeenAt = now;
        }
        free = now - beatSeenAt > TimeUnit.MILLISECONDS.toNanos(statedLease(fs, folder, last));
        if (free) {
          LOG.info("{}: the holder of the lock stopped beating a lease ago ({}): taking it over", folder,
              read(fs, name(folder, last, "")).orElse("").strip());
        }
      }
      if (free) {
        String holder = String.format(Locale.ROOT, "holder=%s\nhost=%s\nsince=%s\nlease_ms=%d\n", UUID.randomUUID(),
            ManagementFactory.getRuntimeMXBean().getName(), Instant.now(), leaseMs);
        try {
          S3PutIfAbsent.put(fs, name(folder, last + 1, ""), holder.getBytes(StandardCharsets.UTF_8));
          removeEpochsBefore(fs, folder, last + 1);
          return new S3Lease(fs, folder, last + 1, leaseMs);
        } catch (java.nio.file.FileAlreadyExistsException taken) {
          continue; // another process took it first: look again
        }
      }
      if (!said) {
        LOG.info("waiting for {}: held by another ingest ({}; a killed one's lock comes back after its lease)", folder,
            read(fs, name(folder, last, "")).orElse("").strip().replace('\n', ' '));
        said = true;
      }
      try {
        Thread.sleep(POLL_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while waiting for " + folder);
      }
    }
  }

  private void beat() {
    try {
      if (fs.exists(name(folder, epoch + 1, ""))) {
        LOG.error("{}: this process's lock was taken over (it did not beat for a lease): another ingest may write the"
            + " same runs", folder);
        beating.cancel(false);
        return;
      }
      write(fs, name(folder, epoch, ".beat"), beats.incrementAndGet() + " " + Instant.now() + "\n");
    } catch (IOException | RuntimeException e) {
      LOG.warn("{}: could not renew the lock ({}); retrying", folder, e.toString());
    }
  }

  /** Releases the lock: the next waiter takes it at once. */
  @Override
  public void close() throws IOException {
    beating.cancel(false);
    write(fs, name(folder, epoch, ".free"), Instant.now() + "\n");
  }

  /** The highest epoch in the folder, 0 for none. */
  private static long lastEpoch(FileSystem fs, Path folder) throws IOException {
    long last = 0;
    for (FileStatus entry : list(fs, folder)) {
      String n = entry.getPath().getName();
      if (n.matches("\\d{20}")) {
        last = Math.max(last, Long.parseLong(n));
      }
    }
    return last;
  }

  private static void removeEpochsBefore(FileSystem fs, Path folder, long epoch) {
    try {
      for (FileStatus entry : list(fs, folder)) {
        String n = entry.getPath().getName();
        if (n.matches("\\d{20}(\\..*)?") && Long.parseLong(n.substring(0, 20)) < epoch) {
          fs.delete(entry.getPath(), false);
        }
      }
    } catch (IOException e) {
      LOG.debug("{}: earlier epochs not removed ({})", folder, e.toString());
    }
  }

  private static long statedLease(FileSystem fs, Path folder, long epoch) throws IOException {
    String holder = read(fs, name(folder, epoch, "")).orElse("");
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^lease_ms=(\\d+)$").matcher(holder);
    return m.find() ? Long.parseLong(m.group(1)) : TimeUnit.SECONDS.toMillis(DEFAULT_LEASE_SECONDS);
  }

  /**
   * What the holder's last beat looks like: its object's ETag (each beat writes other bytes), from
   * its status alone; reading a beat could meet the next one halfway (s3a then refuses the read).
   */
  private static String beatOf(FileSystem fs, Path beat) throws IOException {
    try {
      FileStatus status = fs.getFileStatus(beat);
      return status instanceof org.apache.hadoop.fs.EtagSource etag ? etag.getEtag()
          : status.getModificationTime() + "/" + status.getLen();
    } catch (java.io.FileNotFoundException e) {
      return "";
    }
  }

  private static FileStatus[] list(FileSystem fs, Path folder) throws IOException {
    try {
      return fs.listStatus(folder);
    } catch (java.io.FileNotFoundException e) {
      return new FileStatus[0];
    }
  }

  private static Path name(Path folder, long epoch, String suffix) {
    return new Path(folder, String.format(Locale.ROOT, "%020d%s", epoch, suffix));
  }

  private static Optional<String> read(FileSystem fs, Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      return Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
    } catch (java.io.FileNotFoundException e) {
      return Optional.empty();
    }
  }

  private static void write(FileSystem fs, Path file, String content) throws IOException {
    try (OutputStream out = fs.create(file, true)) {
      out.write(content.getBytes(StandardCharsets.UTF_8));
    }
  }
}
