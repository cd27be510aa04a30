package dev.benchlake.warehouse.kernel;

import io.delta.kernel.defaults.engine.DefaultEngine;
import io.delta.kernel.engine.Engine;
import io.delta.kernel.engine.ExpressionHandler;
import io.delta.kernel.engine.FileSystemClient;
import io.delta.kernel.engine.JsonHandler;
import io.delta.kernel.engine.MetricsReporter;
import io.delta.kernel.engine.ParquetHandler;
import java.util.List;
import org.apache.hadoop.conf.Configuration;

/** Kernel's default engine, except that Parquet files are read on one shared configuration ({@link SharedConfParquetHandler}). */
final class SharedConfEngine implements Engine {
  private final Engine delegate;
  private final ParquetHandler parquet;

  SharedConfEngine(Configuration conf) {
    this.delegate = DefaultEngine.create(conf);
    this.parquet = new SharedConfParquetHandler(conf, delegate.getParquetHandler());
  }

  @Override
  public ExpressionHandler getExpressionHandler() {
    return delegate.getExpressionHandler();
  }

  @Override
  public JsonHandler getJsonHandler() {
    return delegate.getJsonHandler();
  }

  @Override
  public FileSystemClient getFileSystemClient() {
    return delegate.getFileSystemClient();
  }

  @Override
  public ParquetHandler getParquetHandler() {
    return parquet;
  }

  @Override
  public List<MetricsReporter> getMetricsReporters() {
    return delegate.getMetricsReporters();
  }
}
