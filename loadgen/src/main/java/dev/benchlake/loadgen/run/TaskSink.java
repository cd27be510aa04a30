package dev.benchlake.loadgen.run;

import dev.benchlake.core.raw.TaskRecord;
import java.io.IOException;

/** Where task records go; called concurrently by every worker. */
public interface TaskSink extends AutoCloseable {
  void accept(TaskRecord record);

  /** Why writing failed, or null; the run stops when it is not null. */
  default IOException failure() {
    return null;
  }

  /** Writes out what is pending and releases the file. */
  @Override
  void close() throws IOException;

  /** Keeps nothing: for measuring loadgen's own recording overhead. */
  TaskSink DISCARD = new TaskSink() {
    @Override
    public void accept(TaskRecord record) {}

    @Override
    public void close() {}
  };
}
