package dev.benchlake.warehouse;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.schema.PrimitiveType;

/** What a data file's footer says of its columns, for tests of how the warehouse stores them. */
public final class ParquetFooters {
  private ParquetFooters() {}

  /**
   * A top-level column's physical type with its logical annotation, as Parquet prints them:
   * {@code INT96}, {@code INT64 TIMESTAMP(MICROS,true)}.
   */
  public static String physicalType(java.nio.file.Path file, String column) throws IOException {
    try (ParquetFileReader reader = ParquetFileReader.open(HadoopInputFile.fromPath(
        new org.apache.hadoop.fs.Path(file.toUri()), new Configuration()))) {
      PrimitiveType type = reader.getFooter().getFileMetaData().getSchema().getType(column).asPrimitiveType();
      return type.getPrimitiveTypeName()
          + (type.getLogicalTypeAnnotation() == null ? "" : " " + type.getLogicalTypeAnnotation());
    }
  }
}
