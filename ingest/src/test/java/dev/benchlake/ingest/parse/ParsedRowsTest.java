package dev.benchlake.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;

/** The task rows are the warehouse's tasks, but for the columns the pass carries otherwise. */
class ParsedRowsTest {
  @Test
  void theTaskPassSchemaIsTheWarehouseTasksWithSourcePartMicrosAndLineNumber() {
    // What ParsedRows.TASK_SCHEMA spelled out before it was derived from WarehouseSchema.TASKS:
    // the parsers create its rows by position, so the order and the types must stay exactly so.
    assertThat(ParsedRows.TASK_SCHEMA.simpleString()).isEqualTo("struct<source:int,run_part:string,step:string,"
        + "client_id:int,seq:bigint,start_us:bigint,end_us:bigint,latency_ns:bigint,service_ns:bigint,wait_ns:bigint,"
        + "warmup:boolean,ok:boolean,sqlstate:string,error:string,line_no:bigint>");
    assertThat(ParsedRows.TASK_SCHEMA.fields()).extracting(f -> f.name() + "=" + f.nullable()).containsExactly(
        "source=false", "run_part=false", "step=false", "client_id=false", "seq=false", "start_us=true",
        "end_us=true", "latency_ns=true", "service_ns=true", "wait_ns=true", "warmup=false", "ok=false",
        "sqlstate=true", "error=true", "line_no=false");
  }

  @Test
  void aTaskRowOfThePassHoldsTheTaskUnderTheTaskColumnsAndIsCountedAsOneLine() {
    ParsedTask task = new ParsedTask("r1", "select", 7, 42L, 1_000L, 3_000L, 2_000_000L, 1_500_000L, null, true, false,
        "40001", "serialization failure");
    Row row = ParsedRows.task(3, 1, 99L, task);
    assertThat(row.length()).isEqualTo(ParsedRows.SCHEMA.length());
    List<Object> taskColumns = new ArrayList<>();
    for (String name : ParsedRows.TASK_SCHEMA.fieldNames()) {
      taskColumns.add(row.get(ParsedRows.SCHEMA.fieldIndex(name)));
    }
    assertThat(taskColumns).containsExactly(3, "r1", "select", 7, 42L, 1_000L, 3_000L, 2_000_000L, 1_500_000L, null,
        true, false, "40001", "serialization failure", 99L);
    assertThat(row.getByte(ParsedRows.SCHEMA.fieldIndex(ParsedRows.KIND))).isEqualTo(ParsedRows.TASK);
    assertThat(row.getLong(ParsedRows.SCHEMA.fieldIndex(ParsedRows.N_LINES))).isEqualTo(1L);
    assertThat(row.getInt(ParsedRows.SCHEMA.fieldIndex(ParsedRows.FILE))).isEqualTo(1);
    // Only task rows fill the task columns, so they are nullable in the pass's schema.
    assertThat(ParsedRows.SCHEMA.apply("client_id").nullable()).isTrue();
    Row reject = ParsedRows.reject(3, 1, 5L, "x", dev.benchlake.warehouse.RejectType.SYNTAX, null, "bad");
    assertThat(reject.length()).isEqualTo(ParsedRows.SCHEMA.length());
    assertThat(reject.isNullAt(ParsedRows.SCHEMA.fieldIndex("client_id"))).isTrue();
  }
}
