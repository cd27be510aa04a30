package dev.benchlake.warehouse.fs;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * One object created only if its key is free: a PUT with {@code If-None-Match: *}, sent by the S3
 * client of the caller's s3a file system (its endpoint, credentials, path style and retries).
 * Hadoop 3.4.1's s3a has no such write ({@code create(path, false)} is a HEAD, then a PUT), and
 * the SDK it is built with (2.24) names no {@code ifNoneMatch}, so the header is set as is.
 *
 * <p>Apart from {@link S3PutIfAbsentLogStore} because it names the AWS SDK, which is on the class
 * path only where hadoop-aws is: the JVM loads this class on the first s3a commit, never before.
 */
final class S3PutIfAbsent {
  /** Another PUT on the key won it; S3 answers 409 instead while two conditional PUTs race. */
  private static final int PRECONDITION_FAILED = 412;
  private static final int CONFLICT = 409;
  private static final int ATTEMPTS = 5;
  /** In-JVM locks, by a hash of the path: one version of one log is written by one thread at a time. */
  private static final Object[] STRIPES = new Object[64];

  static {
    for (int i = 0; i < STRIPES.length; i++) {
      STRIPES[i] = new Object();
    }
  }

  private S3PutIfAbsent() {}

  /**
   * Creates {@code path} with {@code content} if there is no object at its key.
   *
   * @throws java.nio.file.FileAlreadyExistsException when there is one (what Delta's log stores
   *     throw, and Delta takes for a concurrent commit)
   */
  static void put(FileSystem fs, Path path, byte[] content) throws IOException {
    // Also checked within this JVM first, as Delta's own S3 log store does: on a store that
    // ignores the header, commits of one JVM then stay as safe as with Delta's.
    synchronized (STRIPES[Math.floorMod(path.hashCode(), STRIPES.length)]) {
      if (fs.exists(path)) {
        throw new java.nio.file.FileAlreadyExistsException(path.toString());
      }
      putIfAbsent(fs, path, content);
    }
  }

  private static void putIfAbsent(FileSystem fs, Path path, byte[] content) throws IOException {
    S3AFileSystem s3a = (S3AFileSystem) fs;
    S3Client s3 = s3a.getS3AInternals().getAmazonS3Client("put-if-absent of a Delta commit");
    PutObjectRequest request = PutObjectRequest.builder()
        .bucket(s3a.getBucket())
        .key(s3a.pathToKey(path))
        .overrideConfiguration(o -> o.putHeader("If-None-Match", "*"))
        .build();
    for (int attempt = 1; ; attempt++) {
      try {
        s3.putObject(request, RequestBody.fromBytes(content));
        return;
      } catch (S3Exception e) {
        if (e.statusCode() == CONFLICT && attempt < ATTEMPTS) {
          continue; // the race is being decided: ask again, and get 412 or the object
        }
        if (e.statusCode() == PRECONDITION_FAILED || e.statusCode() == CONFLICT) {
          if (holds(fs, path, content)) {
            return; // our own PUT, answered 412 when the client sent it again after a lost reply
          }
          throw new java.nio.file.FileAlreadyExistsException(path.toString());
        }
        throw new IOException(path + ": " + e.getMessage(), e);
      }
    }
  }

  /** Whether the object at {@code path} is exactly {@code content}. */
  private static boolean holds(FileSystem fs, Path path, byte[] content) throws IOException {
    try (InputStream in = fs.open(path)) {
      return Arrays.equals(in.readNBytes(content.length + 1), content);
    } catch (java.io.FileNotFoundException e) {
      return false;
    }
  }
}
