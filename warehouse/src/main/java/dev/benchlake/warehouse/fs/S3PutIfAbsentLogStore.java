package dev.benchlake.warehouse.fs;

import io.delta.storage.HadoopFileSystemLogStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * Delta's log on {@code s3a://} committed with S3's own put-if-absent: a commit file
 * ({@code _delta_log/N.json}) is written with {@code If-None-Match: *}, so that of two writers that
 * both try version N, in one process or in two, the store takes exactly one and refuses the other
 * (HTTP 412), which Delta then sees as the concurrent commit it is
 * ({@link java.nio.file.FileAlreadyExistsException}: it checks for conflicts and retries at N+1).
 *
 * <p>Why not Delta's own: Delta 4.0 commits on {@code s3a://} with {@code S3SingleDriverLogStore},
 * whose put-if-absent is a check then a write, made safe by a lock inside one JVM; two processes
 * writing one table can both write version N, and the second overwrites the first: a lost commit
 * (S3RoundTripIT shows it). Delta's answer for several writers is {@code S3DynamoDBLogStore}, which
 * needs a DynamoDB table; S3 itself has refused a conditional PUT on an existing key since
 * August 2024, and so do MinIO, Ceph RGW, Cloudflare R2 and S3Proxy's file system store.
 *
 * <p>Needs a store that honours {@code If-None-Match: *} on PUT. A version is also checked for
 * within the JVM first, as Delta's own log store does, so that on a store that ignores the header
 * this is as safe as Delta's: one writing process at a time.
 * Writes that may overwrite (checkpoints, {@code _last_checkpoint}) are plain writes; reads and
 * listings are Hadoop's (S3 lists consistently since December 2020). On another file system than
 * s3a it writes through a temporary file and a rename, as Delta's HDFS log store does.
 *
 * <p>benchlake's Spark sessions use it for {@code s3a://} ({@code spark.delta.logStore.s3a.impl},
 * {@code SparkSessions}); a {@code --conf} of that setting (Delta's DynamoDB log store, say) wins.
 */
public final class S3PutIfAbsentLogStore extends HadoopFileSystemLogStore {
  public S3PutIfAbsentLogStore(Configuration initHadoopConf) {
    super(initHadoopConf);
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf) throws IOException {
    FileSystem fs = path.getFileSystem(hadoopConf);
    if (!"s3a".equals(fs.getScheme())) {
      writeWithRename(path, actions, overwrite, hadoopConf);
      return;
    }
    byte[] content = lines(actions);
    if (overwrite) {
      try (OutputStream out = fs.create(path, true)) {
        out.write(content);
      }
      return;
    }
    // Only here, on s3a: the class that names the AWS SDK, which is on the class path only with hadoop-aws.
    S3PutIfAbsent.put(fs, fs.makeQualified(path), content);
  }

  /** A PUT is all or nothing: a reader never sees part of a commit file. */
  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) throws IOException {
    return !"s3a".equals(path.getFileSystem(hadoopConf).getScheme());
  }

  /** Delta's log file format: one action per line, each line ended by a newline. */
  static byte[] lines(Iterator<String> actions) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (actions.hasNext()) {
      out.writeBytes((actions.next() + "\n").getBytes(StandardCharsets.UTF_8));
    }
    return out.toByteArray();
  }
}
