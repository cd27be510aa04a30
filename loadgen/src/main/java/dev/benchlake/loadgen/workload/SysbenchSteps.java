package dev.benchlake.loadgen.workload;

import dev.benchlake.core.cli.BadInputException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The steps of a {@code --workload sysbench} run, resolved from {@code --steps}: the classic
 * {@link SysbenchStep} names, mytools step names ({@code <testType>_range=<R>}, see
 * {@link MytoolsStep}), {@code mytools} for the study's whole sequence or {@code mytools-2023} for it
 * as it ran in 2023, mixed freely.
 */
public final class SysbenchSteps {
  private final List<SysbenchSpec> specs;

  private SysbenchSteps(List<SysbenchSpec> specs) {
    this.specs = List.copyOf(specs);
  }

  /**
   * @throws BadInputException naming an unknown step and the known ones
   */
  public static SysbenchSteps resolve(List<String> names, int tableSize, int rangeSize, RandType randType) {
    List<SysbenchSpec> specs = new ArrayList<>();
    for (String raw : names) {
      String name = raw.strip();
      if (name.equalsIgnoreCase(MytoolsStep.SET_NAME) || name.equalsIgnoreCase(MytoolsStep.SET_2023)) {
        List<MytoolsStep> set = name.equalsIgnoreCase(MytoolsStep.SET_NAME) ? MytoolsStep.STUDY : MytoolsStep.STUDY_2023;
        set.forEach(s -> specs.add(s.spec(randType, tableSize)));
        continue;
      }
      Optional<SysbenchStep> classic = MytoolsStep.looksLikeOne(name) ? Optional.empty() : SysbenchStep.byName(name);
      if (classic.isPresent()) {
        specs.add(classic.get().spec(rangeSize, randType, tableSize));
        continue;
      }
      MytoolsStep mytools = MytoolsStep.byName(name).orElseThrow(() -> new BadInputException("unknown step '" + raw
          + "'; known: " + String.join(", ", SysbenchStep.names()) + ", " + MytoolsStep.SET_NAME
          + " (the mytools study's sequence), " + MytoolsStep.SET_2023 + " (its " + MytoolsStep.STUDY_2023.size()
          + " steps of 2023) or one of its steps <testType>_range=<R>, testType one of "
          + String.join(", ", java.util.Arrays.stream(MytoolsStep.TestType.values()).map(MytoolsStep.TestType::id)
              .toList())));
      specs.add(mytools.spec(randType, tableSize));
    }
    return new SysbenchSteps(specs);
  }

  List<SysbenchSpec> specs() {
    return specs;
  }

  public List<String> names() {
    return specs.stream().map(SysbenchSpec::name).toList();
  }

  /** Whether a step uses sbtest1 only (select_random_points, select_random_ranges). */
  public boolean anyFirstTableOnly() {
    return specs.stream().anyMatch(SysbenchSpec::firstTableOnly);
  }
}
