package dev.benchlake.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class ScriptTest {
  private static Script parse(String text) {
    return Script.parse("t", 1, text, Map.of("scale", 10L), "t.sql");
  }

  @Test
  void pgbenchSelectOnlyScript() {
    Script s = parse("""
        \\set aid random(1, 100000 * :scale)
        SELECT abalance FROM pgbench_accounts WHERE aid = :aid;
        """);
    assertThat(s.statements()).hasSize(1);
    assertThat(s.statements().get(0).sql()).isEqualTo("SELECT abalance FROM pgbench_accounts WHERE aid = ?");
    long[] slots = s.newSlots();
    SplittableRandom random = new SplittableRandom(1);
    for (int i = 0; i < 1000; i++) {
      s.evaluate(slots, random);
      assertThat(slots[s.statements().get(0).parameterSlots()[0]]).isBetween(1L, 1_000_000L);
    }
  }

  @Test
  void splitsStatementsOutsideQuotesAndCommentsAndKeepsCasts() {
    Script s = parse("""
        -- a comment; with a semicolon
        \\set id 7
        select ';', $$ ; $$, $x$:notavariable$x$, E'\\'; still' from t where id = :id::int;  /* ; */
        update t set a = "col;"
          where id = :id
        """);
    assertThat(s.statements()).hasSize(2);
    assertThat(s.statements().get(0).sql())
        .isEqualTo("select ';', $$ ; $$, $x$:notavariable$x$, E'\\'; still' from t where id = ?::int");
    assertThat(s.statements().get(0).line()).isEqualTo(3);
    assertThat(s.statements().get(1).sql()).isEqualTo("update t set a = \"col;\"\n  where id = ?");
    assertThat(s.statements().get(1).line()).isEqualTo(4);
  }

  @Test
  void expressions() {
    Script s = parse("""
        \\set a 7 + 3 * 2
        \\set b (:a - 1) / 4 % 3
        \\set c -:b + abs(-5) + least(9, :a, 20) + greatest(1, 2)
        select :a, :b, :c
        """);
    long[] slots = s.newSlots();
    s.evaluate(slots, new SplittableRandom(0));
    int[] p = s.statements().get(0).parameterSlots();
    assertThat(new long[] {slots[p[0]], slots[p[1]], slots[p[2]]}).containsExactly(13, 0, 16);
  }

  @Test
  void errorsNameTheLine() {
    assertThatThrownBy(() -> parse("select 1;\n\\set x random(1)\n"))
        .isInstanceOf(BadInputException.class).hasMessage("t.sql:2: random() takes 2 arguments, not 1");
    assertThatThrownBy(() -> parse("\\sleep 10ms\nselect 1"))
        .hasMessage("t.sql:1: unsupported meta-command \\sleep (only \\set is supported)");
    assertThatThrownBy(() -> parse("select 1;\n\nselect :nope"))
        .hasMessage("t.sql:3: variable :nope is not defined (\\set it above or --define it)");
    assertThatThrownBy(() -> parse("-- nothing here\n"))
        .hasMessage("t.sql: no SQL statement in the script");
    assertThatThrownBy(() -> parse("\\set x nosuch(1)\nselect 1"))
        .hasMessageContaining("unknown function nosuch()");
  }
}
