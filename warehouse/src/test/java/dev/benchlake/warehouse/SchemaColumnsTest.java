package dev.benchlake.warehouse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.apache.spark.sql.functions.lit;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;

/** Building on a warehouse table instead of copying it; no Spark session needed. */
class SchemaColumnsTest {
  @Test
  void selectKeepsTheTablesOrderAndNamesAndDerivesOnlyWhatItIsTold() {
    Column[] columns = SchemaColumns.select(WarehouseSchema.REJECTS, Map.of(WarehouseSchema.RUN_ID, lit("r")));
    assertThat(Arrays.stream(columns).map(Column::toString))
        .containsExactly("'r' AS run_id", "source_file", "line_no", "raw_line", "reason", "error_type", "column");
  }

  @Test
  void aTypoIsAnErrorNotASilentlyIgnoredColumn() {
    assertThatThrownBy(() -> SchemaColumns.select(WarehouseSchema.REJECTS, Map.of("run-id", lit("r"))))
        .hasMessageContaining("no column run-id");
  }

  @Test
  void replacingPutsTheReplacementsWhereTheColumnWas() {
    StructField a = new StructField("a", DataTypes.IntegerType, false, Metadata.empty());
    StructField b = new StructField("b", DataTypes.LongType, true, Metadata.empty());
    assertThat(SchemaColumns.replacing(WarehouseSchema.REJECTS, Map.of(WarehouseSchema.RUN_ID, List.of(a, b),
        "raw_line", List.of())).fieldNames()).containsExactly("a", "b", "source_file", "line_no", "reason", "error_type", "column");
  }

  @Test
  void rowsByNameLeaveTheRestNullButNeverARequiredColumn() {
    Row row = SchemaColumns.row(WarehouseSchema.REJECTS, Map.of(WarehouseSchema.RUN_ID, "r", "source_file", "f",
        "line_no", 3L, "raw_line", "x", "reason", "why"));
    assertThat(row.getString(0)).isEqualTo("r");
    assertThat(row.getLong(2)).isEqualTo(3L);
    assertThatThrownBy(() -> SchemaColumns.row(WarehouseSchema.REJECTS, Map.of(WarehouseSchema.RUN_ID, "r")))
        .hasMessageContaining("source_file");
  }
}
