package dev.benchlake.ingest.parse;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.warehouse.RejectType;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.junit.jupiter.api.Test;

/**
 * The task pass's rows are the warehouse's tasks, but for the columns the pass carries otherwise; a
 * reject row, made here only, holds its line redacted.
 */
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
  void aRejectIsStoredRedactedAndStillCountsAsOneLine() {
    String echoed = "/usr/bin/sysbench --db-driver=pgsql --pgsql-user=u --pgsql-password=CANARY-7 --pgsql-host=h run";
    Row reject = ParsedRows.reject(3, 1, 2L, echoed, RejectType.SYNTAX, null, "not sysbench output: '" + echoed + "'");
    Row row = new GenericRowWithSchema(toArray(reject), ParsedRows.SCHEMA);
    assertThat(row.<String>getAs("raw_line")).isEqualTo(
        "/usr/bin/sysbench --db-driver=pgsql --pgsql-user=u --pgsql-password=" + Redaction.MARKER + " --pgsql-host=h run");
    assertThat(row.<String>getAs("reason")).doesNotContain("CANARY-7").contains("--pgsql-host=h");
    assertThat(row.<Long>getAs(ParsedRows.N_LINES)).isEqualTo(1L);
    assertThat(row.<Long>getAs(ParsedRows.LINE_NO)).isEqualTo(2L);

    Row fact = new GenericRowWithSchema(toArray(ParsedRows.fact(3, 1, "", "option.pgsql-password", "CANARY-7")),
        ParsedRows.SCHEMA);
    assertThat(fact.<String>getAs(ParsedRows.FACT_VALUE)).isEqualTo(Redaction.MARKER);
  }

  private static Object[] toArray(Row row) {
    Object[] values = new Object[row.length()];
    for (int i = 0; i < values.length; i++) {
      values[i] = row.get(i);
    }
    return values;
  }
}
