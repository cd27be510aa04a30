package dev.benchlake.warehouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import scala.jdk.javaapi.CollectionConverters;

@org.junit.jupiter.api.Tag("integration")
class RunSelectorTest extends SparkTestBase {
  private static final StructType SCHEMA = new StructType()
      .add("run_id", DataTypes.StringType)
      .add("os", DataTypes.StringType)
      .add("db_major", DataTypes.IntegerType)
      .add("labels", DataTypes.createMapType(DataTypes.StringType, DataTypes.StringType));

  private Dataset<Row> runs() {
    return spark.createDataFrame(List.of(
        RowFactory.create("a", "linux", 16, map("host", "h1")),
        RowFactory.create("b", "windows", 16, map("host", "h2")),
        RowFactory.create("c", "linux", 11, map("note", "x"))), SCHEMA);
  }

  private static scala.collection.Map<String, String> map(String k, String v) {
    return CollectionConverters.asScala(java.util.Map.of(k, v));
  }

  private List<String> select(String selector) {
    return RunSelector.parse(selector).apply(runs()).orderBy("run_id")
        .select("run_id").as(org.apache.spark.sql.Encoders.STRING()).collectAsList();
  }

  @Test
  void matchesColumnsAndLabelsWithAnd() {
    assertThat(select("os=linux")).containsExactly("a", "c");
    assertThat(select("os=linux,db_major=16")).containsExactly("a");
    assertThat(select("host=h2")).containsExactly("b");
    assertThat(select("host!=h2")).containsExactly("a", "c");
    assertThat(select("")).containsExactly("a", "b", "c");
  }

  @Test
  void rejectsMalformedSelectors() {
    assertThatThrownBy(() -> RunSelector.parse("os linux"))
        .isInstanceOf(BadInputException.class).hasMessageContaining("is not key=value");
  }
}
