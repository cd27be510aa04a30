package dev.benchlake.analysis.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RadixSortTest {
  @ParameterizedTest(name = "{0} values")
  @ValueSource(ints = {0, 1, 100, 4096, 100_000})
  void sortsLikeTheJdk(int n) {
    SplittableRandom random = new SplittableRandom(n);
    long[][] cases = {
        random.longs(n, 0, 1L << 40).toArray(),
        random.longs(n, -1000, 1000).toArray(),
        random.longs(n).toArray(),
        random.longs(n, 5, 6).toArray(),
        random.longs(n, Long.MAX_VALUE - 10, Long.MAX_VALUE).toArray()};
    for (long[] values : cases) {
      long[] expected = values.clone();
      Arrays.sort(expected);
      RadixSort.sort(values);
      assertThat(values).isEqualTo(expected);
    }
  }
}
