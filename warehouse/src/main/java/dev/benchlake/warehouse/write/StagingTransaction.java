package dev.benchlake.warehouse.write;

import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.OptimisticTransaction;
import org.apache.spark.sql.delta.files.DelayedCommitProtocol;
import scala.Option;

/**
 * Delta's transaction, as {@link DeltaLog#startTransaction()} makes it, whose writes remove their
 * data files when they fail ({@link RemovingCommitProtocol}).
 */
final class StagingTransaction extends OptimisticTransaction {
  StagingTransaction(DeltaLog log) {
    super(log, Option.empty(), Option.empty());
  }

  /** Delta's logger, not one named after this class: benchlake's own loggers log at INFO. */
  @Override
  public String logName() {
    return OptimisticTransaction.class.getName();
  }

  @Override
  public DelayedCommitProtocol getCommitter(Path outputPath) {
    return new RemovingCommitProtocol(outputPath.toString(), deltaDataSubdir());
  }
}
