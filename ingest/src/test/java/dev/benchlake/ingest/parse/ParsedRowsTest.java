package dev.benchlake.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The task pass's rows are the warehouse's tasks, but for the columns the pass carries otherwise. */
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
}
