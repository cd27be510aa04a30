package dev.benchlake.loadgen.run;

import dev.benchlake.core.raw.GzipTasks;
import dev.benchlake.core.raw.TaskCsv;
import dev.benchlake.core.raw.TaskRecord;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.GZIPOutputStream;

/**
 * Appends task records to tasks.csv from one writer thread, so that workers never wait on disk.
 *
 * <p>Workers put records on a bounded queue (they only wait if the writer falls
 * {@value #QUEUE_CAPACITY} records behind, i.e. when the disk stalls); the writer drains it every
 * 20 ms rather than waking up for each record. It formats them
 * and writes whole lines only, at least every {@value #FLUSH_INTERVAL_MS} ms: after a crash
 * (even {@code kill -9}) the file holds every task recorded more than
 * {@value #FLUSH_INTERVAL_MS} ms earlier, and every complete line is valid (a kill in the middle
 * of a write can cut the last line short, nothing else). The file is fsynced once, on {@link #close()}:
 * syncing during the run would put loadgen's disk writes in the way of the server being measured.
 *
 * <p>A file named {@code *.gz} ({@code tasks.csv.gz}) gets the same lines through gzip, with a sync
 * flush at each of those writes: each write ends on a whole deflate block, so a crash keeps the same
 * lines as tasks.csv would, and a reader that stops where the bytes stop ({@link GzipTasks}) reads
 * them; the gzip trailer is written on {@link #close()}.
 */
public final class CsvTaskWriter implements TaskSink {
  static final int QUEUE_CAPACITY = 1 << 16;
  static final long FLUSH_INTERVAL_MS = 250;
  private static final int WRITE_THRESHOLD_CHARS = 256 * 1024;
  private static final long DRAIN_INTERVAL_NS = TimeUnit.MILLISECONDS.toNanos(20);
  private static final TaskRecord END = new TaskRecord("end", 0, 0, 0, 0, 0, 0, false, false, "", "");

  private final FileChannel channel;
  /** tasks.csv.gz's compressor, writing into {@link #channel}; null for tasks.csv. */
  private final GZIPOutputStream gzip;
  private final BlockingQueue<TaskRecord> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
  private final Thread writer;
  private final StringBuilder pending = new StringBuilder(WRITE_THRESHOLD_CHARS + 4096);
  private volatile IOException failure;
  private volatile boolean closed;
  /** Written by the writer thread only. */
  private volatile long lines;

  /** Creates {@code file} (which must not exist) with the header line and starts the writer thread. */
  public CsvTaskWriter(Path file) throws IOException {
    this.channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
    try {
      this.gzip = GzipTasks.compressed(file.getFileName().toString())
          ? new GZIPOutputStream(Channels.newOutputStream(channel), 1 << 16, true) : null;
      writeFully(TaskCsv.HEADER + "\n");
      syncFlush();
    } catch (IOException e) {
      channel.close();
      throw e;
    }
    this.writer = new Thread(this::drain, "tasks-csv-writer");
    writer.setDaemon(true);
    writer.start();
  }

  @Override
  public void accept(TaskRecord record) {
    if (failure != null) {
      return;
    }
    while (!queue.offer(record) && failure == null) {
      // The writer is a whole queue behind (the disk stalls): wait for it rather than lose a line.
      LockSupport.parkNanos(DRAIN_INTERVAL_NS / 20);
    }
  }

  @Override
  public IOException failure() {
    return failure;
  }

  /** Lines written so far, header excluded (for tests and the summary). */
  public long linesWritten() {
    return lines;
  }

  private void drain() {
    List<TaskRecord> batch = new ArrayList<>(4096);
    long nextFlush = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FLUSH_INTERVAL_MS);
    boolean ended = false;
    try {
      while (!ended) {
        if (queue.drainTo(batch, 4096) == 0) {
          // Sleep instead of blocking on the queue: a writer waiting in take() would be woken by
          // every single record, and those context switches cost the server being measured.
          LockSupport.parkNanos(DRAIN_INTERVAL_NS);
        }
        for (TaskRecord r : batch) {
          if (r == END) {
            ended = true;
            break;
          }
          TaskCsv.appendLine(r, pending);
          lines++;
        }
        batch.clear();
        long now = System.nanoTime();
        if (ended || pending.length() >= WRITE_THRESHOLD_CHARS || now >= nextFlush) {
          writePending();
          nextFlush = now + TimeUnit.MILLISECONDS.toNanos(FLUSH_INTERVAL_MS);
        }
      }
    } catch (IOException e) {
      failure = e;
      queue.clear();
    }
  }

  private void writePending() throws IOException {
    if (pending.length() > 0) {
      writeFully(pending);
      pending.setLength(0);
      syncFlush();
    }
  }

  /** tasks.csv.gz: everything written so far out of the compressor, as whole blocks, into the file. */
  private void syncFlush() throws IOException {
    if (gzip != null) {
      gzip.flush();
    }
  }

  private void writeFully(CharSequence text) throws IOException {
    // String.getBytes has an intrinsic for the usual all-ASCII text; encoding a CharBuffer has not.
    byte[] encoded = text.toString().getBytes(StandardCharsets.UTF_8);
    if (gzip != null) {
      gzip.write(encoded);
      return;
    }
    ByteBuffer bytes = ByteBuffer.wrap(encoded);
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }

  /** Writes everything queued, fsyncs and closes the file. Idempotent. */
  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    try {
      while (writer.isAlive() && !queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
        // the writer is catching up
      }
      writer.join(TimeUnit.SECONDS.toMillis(60));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    try {
      if (failure == null) {
        if (gzip != null) {
          gzip.finish();
        }
        channel.force(false);
      }
    } finally {
      channel.close();
    }
    if (failure != null) {
      throw failure;
    }
  }
}
