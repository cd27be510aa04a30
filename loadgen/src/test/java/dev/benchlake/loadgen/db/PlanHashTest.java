package dev.benchlake.loadgen.db;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class PlanHashTest {
  /** A custom plan's constants, PostgreSQL's form of a 100-constant IN list, as the index condition shows it. */
  private static String customPlan(int constants) {
    String list = IntStream.rangeClosed(1, constants).mapToObj(Integer::toString).collect(Collectors.joining(","));
    return "Index Scan using sbtest1_pkey on sbtest1  (cost=0.29..8.31 rows=1 width=4)\n"
        + "  Index Cond: (id = ANY ('{" + list + "}'::integer[]))";
  }

  /**
   * mytools' random-points_range=1000 on PostgreSQL 16 keeps a custom plan with its 1,000 constants.
   * Reading it once recursed a frame a character and overflowed the stack, which ended the side's
   * run in `study versions --pg 11,16` at its defaults. 200,000 constants (1.3 MB) read in linear time.
   */
  @Test
  void aCustomPlanWithThousandsOfConstantsIsReadAndHashesAsItsGenericPlan() {
    String generic = "Index Scan using sbtest1_pkey on sbtest1  (cost=0.29..8.31 rows=1 width=4)\n"
        + "  Index Cond: (id = ANY (ARRAY[$1, $2, $3]))";
    for (int constants : new int[] {3, 1_000, 200_000}) {
      assertThat(PlanHash.normalised(customPlan(constants)))
          .isEqualTo("Index Scan using sbtest1_pkey on sbtest1\n  Index Cond: (id = ANY (?))");
      assertThat(PlanHash.of(customPlan(constants))).isEqualTo(PlanHash.of(generic));
    }
  }

  @Test
  void aQuotedLiteralKeepsItsDoubledQuotesInsideAndItsCast() {
    assertThat(PlanHash.normalised("Filter: (c = 'it''s'::character varying)")).isEqualTo("Filter: (c = ?)");
    assertThat(PlanHash.normalised("Filter: ((c = 'a'::text) AND (pad = 'b''c'::bpchar))"))
        .isEqualTo("Filter: ((c = ?) AND (pad = ?))");
  }
}
