package dev.benchlake.analysis.stats;

import static dev.benchlake.analysis.testing.Tolerance.assertClose;

import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.analysis.stats.Reference.Sample;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class WelchTTest {
  @ParameterizedTest(name = "{0}")
  @MethodSource("dev.benchlake.analysis.stats.Reference#samples")
  void matchesScipy(Sample sample) {
    JsonNode expected = sample.expected().get("welch");
    WelchT.Result result = WelchT.test(Moments.of(sample.candidate()), Moments.of(sample.baseline()));
    assertClose("t", result.t(), Reference.number(expected.get("t")), 1e-9);
    assertClose("df", result.df(), Reference.number(expected.get("df")), 1e-9);
    assertClose("p", result.p(), Reference.number(expected.get("p")), 1e-7);
  }
}
