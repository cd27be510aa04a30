package dev.benchlake.loadgen.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The mytools steps send what their documentation table says, and the study's sequence is the
 * study's. The table is read from MytoolsStep's own javadoc, so code and documentation cannot drift.
 */
class MytoolsStepTest {
  private static final int TABLE = 3;
  private static final Pattern ROW = Pattern.compile(
      "<tr><td>([a-z-]+)</td><td>([a-z ]+)</td><td>\\{@code (.+?)}</td><td>(.+?)</td></tr>");

  /** test type → {R is, SQL shape}, as documented. */
  private static Map<String, String[]> documented() throws IOException {
    String source = Files.readString(Path.of("src/main/java/dev/benchlake/loadgen/workload/MytoolsStep.java"),
        StandardCharsets.UTF_8);
    Map<String, String[]> rows = new LinkedHashMap<>();
    Matcher m = ROW.matcher(source);
    while (m.find()) {
      rows.put(m.group(1), new String[] {m.group(2), m.group(3).replace("&lt;", "<")});
    }
    return rows;
  }

  /** The statements a documented shape stands for, at R, on table {@value #TABLE}. */
  private static List<String> expand(String shape, int range) {
    List<String> out = new ArrayList<>();
    for (String part : shape.split("; ")) {
      int times = 1;
      Matcher rep = Pattern.compile(" ×(\\d+)$").matcher(part);
      if (rep.find()) {
        times = Integer.parseInt(rep.group(1));
        part = part.substring(0, rep.start());
      }
      Matcher in = Pattern.compile("\\?×(R|\\d+)").matcher(part);
      StringBuilder sql = new StringBuilder();
      while (in.find()) {
        int n = in.group(1).equals("R") ? range : Integer.parseInt(in.group(1));
        in.appendReplacement(sql, String.join(", ", Collections.nCopies(n, "?")));
      }
      in.appendTail(sql);
      // The bounds ?+R and ?+R-1 are one bind parameter each.
      String statement = sql.toString().replace("?+R-1", "?").replace("?+R", "?").replace("sbtestN", "sbtest" + TABLE);
      out.addAll(Collections.nCopies(times, statement));
    }
    return out;
  }

  @Test
  void everyTestTypeIsDocumentedWithWhatItsRangeMeans() throws IOException {
    Map<String, String[]> doc = documented();
    for (MytoolsStep.TestType t : MytoolsStep.TestType.values()) {
      assertThat(doc).as(t.id()).containsKey(t.id());
      assertThat(doc.get(t.id())[0]).as(t.id()).isEqualTo(t.rangeUse().name().toLowerCase(Locale.ROOT).replace('_', ' '));
    }
    assertThat(doc).hasSize(MytoolsStep.TestType.values().length);
  }

  @Test
  void everyStepOfTheStudySendsItsDocumentedStatements() throws IOException {
    Map<String, String[]> doc = documented();
    for (MytoolsStep step : MytoolsStep.STUDY) {
      SysbenchSpec spec = step.spec(RandType.UNIFORM, 10_000);
      assertThat(SysbenchWorkload.statements(spec, TABLE)).as(step.name())
          .isEqualTo(expand(doc.get(step.type().id())[1], step.range()));
    }
  }

  @Test
  void pointStepsHaveRValuesInTheirInListOnTheIndexTheyNameAndCoveredOnesReadOnlyThatColumn() {
    Pattern select = Pattern.compile("SELECT (.+) FROM sbtest3 WHERE (id|k) IN \\(([?, ]+)\\)");
    for (int range : new int[] {10, 100, 1000}) {
      for (String type : List.of("random-points", "hot-points", "points-covered-pk", "points-notcovered-pk",
          "points-covered-si", "points-notcovered-si")) {
        MytoolsStep step = MytoolsStep.byName(type + "_range=" + range).orElseThrow();
        List<String> sql = SysbenchWorkload.statements(step.spec(RandType.UNIFORM, 5000), TABLE);
        assertThat(sql).as(step.name()).hasSize(1);
        Matcher m = select.matcher(sql.get(0));
        assertThat(m.matches()).as(sql.get(0)).isTrue();
        assertThat(m.group(3).split(",")).as(step.name()).hasSize(range);
        String column = m.group(2);
        assertThat(column).isEqualTo(type.endsWith("-si") ? "k" : "id");
        List<String> selected = List.of(m.group(1).split(", "));
        if (type.contains("-covered-")) {
          assertThat(selected).as(step.name()).containsExactly(column);
        } else {
          assertThat(selected).as(step.name()).contains("c");
        }
      }
    }
  }

  @Test
  void theReadOnlyVariantsKeepOneKindOfRangeQueryEach() {
    Map<String, String> aggregate = Map.of("read-only-simple", "SELECT c FROM", "read-only-sum", "SELECT SUM(k)",
        "read-only-order", "ORDER BY c", "read-only-distinct", "SELECT DISTINCT c", "read-only-count", "count(c)");
    aggregate.forEach((type, mark) -> {
      List<String> sql = SysbenchWorkload.statements(MytoolsStep.byName(type + "_range=1000").orElseThrow()
          .spec(RandType.UNIFORM, 5000), TABLE);
      List<String> ranges = sql.stream().filter(s -> s.contains("BETWEEN")).toList();
      assertThat(ranges).as(type).hasSize(1);
      assertThat(ranges.get(0)).as(type).contains(mark);
      assertThat(sql.stream().filter(s -> s.endsWith("WHERE id=?")).count()).as(type)
          .isEqualTo(type.equals("read-only-count") ? 0 : 10);
    });
  }

  @Test
  void theStudysSequenceIsInItsOrderWithItsNames() {
    List<String> names = MytoolsStep.STUDY.stream().map(MytoolsStep::name).toList();
    assertThat(names).doesNotHaveDuplicates().hasSize(48);
    assertThat(names.subList(0, 3)).containsExactly("point-query.warm_range=100", "point-query.pre_range=100",
        "random-points.pre_range=10");
    assertThat(names).containsSubsequence("read-only.pre_range=10", "read-only.pre_range=100",
        "read-only.pre_range=10000", "points-covered-pk.pre_range=100", "range-notcovered-si.pre_range=100",
        "update-inlist_range=100", "update-index_range=100", "update-nonindex_range=100", "update-one_range=100",
        "update-zipf_range=100", "write-only_range=10000", "read-write_range=10", "read-write_range=100",
        "read-only_range=10", "read-only_range=100", "read-only_range=10000", "read-only-simple_range=1000",
        "read-only-sum_range=1000", "read-only-order_range=1000", "read-only-distinct_range=1000",
        "read-only-count_range=1000", "point-query_range=100", "random-points_range=10", "random-points_range=100",
        "random-points_range=1000", "hot-points_range=100", "points-covered-pk_range=100",
        "points-notcovered-pk_range=100", "points-covered-si_range=100", "points-notcovered-si_range=100",
        "range-covered-pk_range=100", "range-notcovered-pk_range=100", "range-covered-si_range=100",
        "range-notcovered-si_range=100", "scan_range=100", "delete_range=100", "insert_range=100");
    // The .pre queries run before any write, their repeats after: the study's before/after comparison.
    int firstWrite = names.indexOf("update-inlist_range=100");
    for (int i = 0; i < names.size(); i++) {
      boolean writes = MytoolsStep.STUDY.get(i).spec(RandType.UNIFORM, 100).writes();
      if (i < firstWrite) {
        assertThat(writes).as(names.get(i)).isFalse();
        assertThat(names.get(i)).matches(".*\\.(pre|warm)_range=\\d+");
      }
    }
    assertThat(names.get(names.size() - 1)).isEqualTo("insert_range=100");
    // run.sh's postwrite (vacuum, checkpoint) follows the warm step and read-write at 100, as all_small.sh asks.
    assertThat(MytoolsStep.STUDY.stream().filter(MytoolsStep::vacuumAfter).map(MytoolsStep::name))
        .containsExactly("point-query.warm_range=100", "read-write_range=100");
  }

  /**
   * {@code --steps mytools-2023} is all_small.sh as mdcallag/mytools had it in 2023 (4c80133a,
   * 2023-02-25), written out here from that script, step by step: 43 steps, without the
   * read-only-*_range=1000 variants added in 2024-2025.
   */
  @Test
  void theTwentyTwentyThreeSequenceIsAllSmallAsItRanThen() {
    List<String> allSmall2023 = new ArrayList<>(List.of("point-query.warm_range=100", "point-query.pre_range=100",
        "random-points.pre_range=10", "random-points.pre_range=100", "random-points.pre_range=1000",
        "read-only.pre_range=10", "read-only.pre_range=100", "read-only.pre_range=10000"));
    for (String t : List.of("points-covered-pk", "points-notcovered-pk", "points-covered-si", "points-notcovered-si",
        "range-covered-pk", "range-notcovered-pk", "range-covered-si", "range-notcovered-si")) {
      allSmall2023.add(t + ".pre_range=100");
    }
    for (String t : List.of("update-inlist", "update-index", "update-nonindex", "update-one", "update-zipf")) {
      allSmall2023.add(t + "_range=100");
    }
    // write-only runs with $range left at 10000 by the read-only.pre loop before it.
    allSmall2023.addAll(List.of("write-only_range=10000", "read-write_range=10", "read-write_range=100",
        "read-only_range=10", "read-only_range=100", "read-only_range=10000", "point-query_range=100",
        "random-points_range=10", "random-points_range=100", "random-points_range=1000", "hot-points_range=100"));
    for (String t : List.of("points-covered-pk", "points-notcovered-pk", "points-covered-si", "points-notcovered-si",
        "range-covered-pk", "range-notcovered-pk", "range-covered-si", "range-notcovered-si", "scan", "delete",
        "insert")) {
      allSmall2023.add(t + "_range=100");
    }
    SysbenchSteps steps = SysbenchSteps.resolve(List.of(" Mytools-2023 "), 1000, 100, RandType.UNIFORM);
    assertThat(steps.names()).hasSize(43).isEqualTo(allSmall2023);
    assertThat(MytoolsStep.STUDY).hasSize(48);
    assertThat(MytoolsStep.STUDY.stream().map(MytoolsStep::name).filter(n -> !allSmall2023.contains(n)))
        .containsExactly("read-only-simple_range=1000", "read-only-sum_range=1000", "read-only-order_range=1000",
            "read-only-distinct_range=1000", "read-only-count_range=1000");
  }

  @Test
  void stepsResolveByNameMixedWithTheClassicOnes() {
    SysbenchSteps all = SysbenchSteps.resolve(List.of("mytools"), 1000, 100, RandType.UNIFORM);
    assertThat(all.names()).isEqualTo(MytoolsStep.STUDY.stream().map(MytoolsStep::name).toList());
    SysbenchSteps some = SysbenchSteps.resolve(List.of("point-query_range=100", "point-select", " scan_range=7 "),
        1000, 100, RandType.UNIFORM);
    assertThat(some.names()).containsExactly("point-query_range=100", "point-select", "scan_range=7");
    assertThatThrownBy(() -> SysbenchSteps.resolve(List.of("points-kovered-pk_range=100"), 1000, 100, RandType.UNIFORM))
        .isInstanceOf(BadInputException.class).hasMessageContaining("points-kovered-pk_range=100")
        .hasMessageContaining("points-covered-pk");
    assertThatThrownBy(() -> MytoolsStep.byName("scan_range=0")).isInstanceOf(BadInputException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  void updateOneHitsRowOneAndUpdateZipfIsSkewedAndDurationsFollowAllSmall() {
    SysbenchSpec one = MytoolsStep.byName("update-one_range=100").orElseThrow().spec(RandType.UNIFORM, 5000);
    assertThat(one.idMax()).isEqualTo(1);
    SysbenchSpec zipf = MytoolsStep.byName("update-zipf_range=100").orElseThrow().spec(RandType.UNIFORM, 5000);
    assertThat(zipf.randType()).isEqualTo(RandType.ZIPFIAN);
    assertThat(zipf.idMax()).isEqualTo(5000);
    assertThat(MytoolsStep.byName("write-only_range=10000").orElseThrow().usesWriteDuration()).isFalse();
    assertThat(MytoolsStep.byName("read-write_range=10").orElseThrow().usesWriteDuration()).isTrue();
    assertThat(MytoolsStep.byName("insert_range=100").orElseThrow().usesWriteDuration()).isTrue();
    assertThat(MytoolsStep.byName("scan_range=100").orElseThrow().usesWriteDuration()).isFalse();
  }
}
