package dev.benchlake.warehouse.write;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.JobContext;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.internal.io.FileCommitProtocol.TaskCommitMessage;
import org.apache.spark.sql.delta.actions.AddFile;
import org.apache.spark.sql.delta.files.DelayedCommitProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.Tuple2;
import scala.jdk.javaapi.CollectionConverters;

/**
 * Delta's commit protocol for a table's data files, plus the clean-up that Delta does not implement: a
 * write that fails removes the files it wrote. Delta's own {@code abortTask} and {@code abortJob}
 * do nothing, so a full disk left the half-written file of the failing task, and the whole files of
 * the tasks that had finished, in the table's folder: named by no log, so never read, but never
 * removed either (short of a {@code VACUUM}).
 *
 * <ul>
 *   <li>A failing task removes its own files ({@code abortTask}, on the executor, where the
 *       protocol's {@code addedFiles} are that task's files).
 *   <li>A failing job removes the files of the tasks that had committed ({@code abortJob}, on the
 *       driver, which heard of each in {@code onTaskCommit}).
 * </ul>
 * Only files this write named are removed: another ingest writing the same table meanwhile keeps
 * its files. (A task still running when its job fails and that finishes after {@code abortJob}
 * keeps its file: Spark cancels such tasks, so this is rare, and the file is named by no log.)
 */
final class RemovingCommitProtocol extends DelayedCommitProtocol {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(RemovingCommitProtocol.class);

  private final String tablePath;
  /** Files (relative to the table) of the tasks that committed: on the driver only. */
  private final transient List<String> committedFiles = new ArrayList<>();

  RemovingCommitProtocol(String tablePath, Option<String> subdir) {
    super("delta", tablePath, Option.empty(), subdir);
    this.tablePath = tablePath;
  }

  /** Delta's logger, not one named after this class: benchlake's own loggers log at INFO. */
  @Override
  public String logName() {
    return DelayedCommitProtocol.class.getName();
  }

  @Override
  public void abortTask(TaskAttemptContext taskContext) {
    super.abortTask(taskContext);
    if (addedFiles() == null) {
      return; // the task failed before it was set up
    }
    for (Tuple2<scala.collection.immutable.Map<String, String>, String> file : CollectionConverters.asJava(addedFiles())) {
      remove(file._2(), taskContext.getConfiguration());
    }
  }

  @Override
  public void onTaskCommit(TaskCommitMessage message) {
    super.onTaskCommit(message);
    for (Object action : CollectionConverters.asJava((scala.collection.Iterable<?>) message.obj())) {
      if (action instanceof AddFile add) {
        committedFiles.add(add.path());
      }
    }
  }

  @Override
  public void abortJob(JobContext jobContext) {
    super.abortJob(jobContext);
    for (String file : committedFiles) {
      remove(file, jobContext.getConfiguration());
    }
  }

  /** Removes a data file (and, on a local disk, the checksum file Hadoop writes beside it). */
  private void remove(String relativeUri, Configuration conf) {
    try {
      Path file = new Path(new Path(tablePath), new Path(new URI(relativeUri)));
      file.getFileSystem(conf).delete(file, false);
    } catch (IOException | UncheckedIOException | URISyntaxException e) {
      // The write failed already, with its own error; this one only leaves a file no log names.
      LOG.warn("cannot remove the data file {} of a failed write: {}", relativeUri, e.getMessage());
    }
  }
}
