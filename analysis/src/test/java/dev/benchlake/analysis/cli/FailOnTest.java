package dev.benchlake.analysis.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.analysis.compare.AaControl;
import dev.benchlake.analysis.report.Range;
import dev.benchlake.analysis.stats.Verdict;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The quickstart's and the studies' {@code --fail-on} (issue 49): a finished study's calls and its a/a control
 * decide exit 3, in one stderr line that says which gate failed and why.
 */
class FailOnTest {
  private static final List<FailOn> BOTH = List.of(FailOn.UNRELIABLE, FailOn.UNDECIDED);

  private static FailOn.Call call(String step, Verdict verdict, double ratio) {
    return new FailOn.Call(step, verdict, ratio, new Range(ratio - 0.05, ratio + 0.05));
  }

  private static AaControl control(Verdict verdict, double ratio) {
    return new AaControl(6, 12, 30, 5, ratio, new Range(ratio - 0.1, ratio + 0.14), 0.95,
        new Range(ratio - 0.08, ratio + 0.12), 0.9, verdict, 0.05, true, null);
  }

  private static final List<FailOn.Call> DECIDED = List.of(call("point-select", Verdict.EQUIVALENT, 1.01),
      call("insert", Verdict.SLOWER, 1.2));

  @Test
  void anUndecidedStepFailsUndecidedAndSaysWhich() {
    List<FailOn.Call> calls = List.of(call("point-select", Verdict.EQUIVALENT, 1.01),
        call("insert", Verdict.INCONCLUSIVE, 1.08), call("update-index", Verdict.INCONCLUSIVE, 0.97));
    assertThat(FailOn.studyFailure("quickstart", BOTH, calls, control(Verdict.EQUIVALENT, 1.0)))
        .contains("benchlake quickstart: --fail-on unreliable,undecided: undecided: 2 of 3 steps (insert, update-index)");
    assertThat(FailOn.studyFailure("quickstart", BOTH, DECIDED, control(Verdict.EQUIVALENT, 1.0)))
        .as("every step decided, the control equivalent: a slower step is an answer, not a failure").isEmpty();
    assertThat(FailOn.studyFailure("quickstart", List.of(FailOn.REGRESSION), DECIDED, null))
        .contains("benchlake quickstart: --fail-on regression: regression: 1 of 2 steps (insert)");
  }

  @Test
  void aControlNotEquivalentFailsUnreliable() {
    // As issue 49's plain user's run: the a/a control inconclusive at +10.8 %, exit 0 until now.
    assertThat(FailOn.studyFailure("study ab", BOTH, DECIDED, control(Verdict.INCONCLUSIVE, 1.108)))
        .contains("benchlake study ab: --fail-on unreliable,undecided: unreliable: the a/a control came out "
            + "inconclusive, θ +10.8%, 90% interval [+2.8%, +22.8%], not within ±5%");
    assertThat(FailOn.studyFailure("study ab", List.of(FailOn.UNRELIABLE), DECIDED, control(Verdict.SLOWER, 1.2)))
        .hasValueSatisfying(line -> assertThat(line).contains("unreliable: the a/a control came out slower"));
    assertThat(FailOn.studyFailure("study ab", List.of(FailOn.UNDECIDED), DECIDED, control(Verdict.SLOWER, 1.2)))
        .as("only the gates asked for").isEmpty();
    assertThat(FailOn.studyFailure("study versions", List.of(FailOn.UNRELIABLE), DECIDED, null))
        .as("a design without a control has nothing to fail").isEmpty();
  }

  @Test
  void bothFailingGatesShareOneLine() {
    List<FailOn.Call> calls = List.of(call("insert", Verdict.INCONCLUSIVE, 1.08));
    assertThat(FailOn.studyFailure("quickstart", BOTH, calls, control(Verdict.FASTER, 0.9)))
        .hasValueSatisfying(line -> assertThat(line).doesNotContain("\n")
            .contains("unreliable: the a/a control came out faster").contains("; undecided: 1 of 1 steps (insert)"));
  }

  @Test
  void compareKnowsEveryGateButTheControls() {
    assertThat(new FailOn.OfStudy().convert("Unreliable")).isEqualTo(FailOn.UNRELIABLE);
    assertThat(new FailOn.OfCompare().convert("undecided")).isEqualTo(FailOn.UNDECIDED);
    assertThatThrownBy(() -> new FailOn.OfCompare().convert("unreliable"))
        .hasMessage("'unreliable' is not one of regression, inconclusive, not-equivalent, undecided");
  }
}
