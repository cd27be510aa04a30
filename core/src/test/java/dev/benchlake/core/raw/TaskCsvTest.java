package dev.benchlake.core.raw;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TaskCsvTest {
  private static final TaskRecord OK = new TaskRecord("point-select", 3, 17, 1_000, 1_500, 9_000, 400, false, true, "", "");

  @Test
  void headerNamesEveryColumnInOrder() {
    assertThat(TaskCsv.HEADER)
        .isEqualTo("step,client_id,seq,intended_start_ns,start_ns,end_ns,wait_ns,warmup,ok,sqlstate,error");
  }

  @Test
  void formatsAPlainLine() {
    assertThat(TaskCsv.format(OK)).isEqualTo("point-select,3,17,1000,1500,9000,400,false,true,,");
  }

  @Test
  void roundTripsQuotesCommasAndStripsLineBreaks() {
    TaskRecord failed = new TaskRecord("my \"step\", 2", 0, 0, 5, 5, 5, 0, true, false, "57P01",
        "terminating connection\ndue to \"admin\", command\r");
    String line = TaskCsv.format(failed);
    assertThat(line).doesNotContain("\n").doesNotContain("\r");
    TaskRecord back = TaskCsv.parse(line);
    assertThat(back.step()).isEqualTo("my \"step\", 2");
    assertThat(back.error()).isEqualTo("terminating connection due to \"admin\", command ");
    assertThat(back.sqlstate()).isEqualTo("57P01");
    assertThat(back.ok()).isFalse();
    assertThat(back.warmup()).isTrue();
  }

  @Test
  void toleratesATrailingCarriageReturn() {
    assertThat(TaskCsv.parse(TaskCsv.format(OK) + "\r")).isEqualTo(OK);
  }

  @Test
  void derivesLatencyFromTheIntendedStart() {
    assertThat(OK.latencyNs()).isEqualTo(8_000);
    assertThat(OK.serviceNs()).isEqualTo(7_500);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(delimiter = '|', value = {
      "''|the line ends after step",
      "',1,2,3,4,5,0,false,true,,'|step is empty",
      "s|the line ends after step",
      "s,1,2,3,4,5,6,false,true,,x,extra|more than 11 columns",
      "s,1,2,3,4,5,0,false,true|the line ends before sqlstate",
      "s,one,2,3,4,5,6,false,true,,|client_id is not an integer: 'one'",
      "s,1,2,3,4,5,6,no,true,,|warmup is not true or false: 'no'",
      "s,1,2,3,4,5,6,false,true,,\"oops|error has an unterminated quote",
      "s,1,2,3,4,5,6,false,true,,x\"y|error has a stray double quote",
      "s,1,2,3,4,5,2,false,true,,|wait_ns 2 is longer than",
      "s,1,2,5,4,9,0,false,true,,|times out of order",
      "s,1,2,3,4,5,99999999999999999999,false,true,,|wait_ns is out of range",
      "s,-1,2,3,4,5,0,false,true,,|client_id is out of range",
      "s,1,2,3,4,5,0,false,true,x|the line ends after sqlstate",
  })
  void rejectsMalformedLinesWithAReason(String line, String reason) {
    assertThatThrownBy(() -> TaskCsv.parse(line))
        .isInstanceOf(TaskCsv.MalformedLineException.class)
        .hasMessageContaining(reason);
  }
}
