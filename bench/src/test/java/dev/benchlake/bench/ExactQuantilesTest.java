package dev.benchlake.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.analysis.stats.LinearQuantile;
import dev.benchlake.warehouse.spark.SparkTestBase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Exact quantiles on Spark against {@link LinearQuantile} (numpy's definition) on all the values. */
@org.junit.jupiter.api.Tag("integration")
class ExactQuantilesTest extends SparkTestBase {
  private static final double[] P = {0, 0.001, 0.25, 0.5, 0.9, 0.95, 0.99, 0.999, 1};
  private static final StructType SCHEMA = new StructType().add("group", DataTypes.StringType).add("value", DataTypes.LongType);

  /**
   * Groups shaped to reach every path: a spread of buckets, heavy ties, one value repeated, a
   * group with negative values, a group of one, and nulls (skipped).
   */
  private static Map<String, List<Long>> groups() {
    SplittableRandom random = new SplittableRandom(5);
    Map<String, List<Long>> groups = new TreeMap<>();
    for (int i = 0; i < 4000; i++) {
      groups.computeIfAbsent("lognormal", g -> new ArrayList<>()).add(Math.round(Math.exp(14 + random.nextGaussian())));
      groups.computeIfAbsent("ties", g -> new ArrayList<>()).add(1_000_000L + 1000L * random.nextInt(20));
      groups.computeIfAbsent("constant", g -> new ArrayList<>()).add(123_456_789L);
      groups.computeIfAbsent("signed", g -> new ArrayList<>()).add(random.nextLong(-5_000, 5_000));
    }
    groups.put("single", List.of(42L));
    return groups;
  }

  @ParameterizedTest(name = "collect limit {0}")
  @ValueSource(ints = {ExactQuantiles.COLLECT_LIMIT, 50, 1})
  void matchesTheDefinitionOnAllValues(int collectLimit) {
    Map<String, List<Long>> groups = groups();
    List<Row> rows = new ArrayList<>();
    groups.forEach((g, values) -> values.forEach(v -> rows.add(RowFactory.create(g, v))));
    rows.add(RowFactory.create("lognormal", null));
    rows.add(RowFactory.create(null, 7L));
    Dataset<Row> data = spark.createDataFrame(rows, SCHEMA).repartition(3);
    Map<String, double[]> quantiles = ExactQuantiles.of(data, collectLimit, P);
    assertThat(quantiles).containsOnlyKeys(groups.keySet());
    groups.forEach((g, values) -> {
      long[] sorted = values.stream().mapToLong(Long::longValue).sorted().toArray();
      for (int i = 0; i < P.length; i++) {
        assertThat(quantiles.get(g)[i]).as(g + " q" + P[i]).isEqualTo(LinearQuantile.of(sorted, P[i]));
      }
    });
  }
}
