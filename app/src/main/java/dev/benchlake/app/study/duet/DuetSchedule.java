package dev.benchlake.app.study.duet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The rounds of a duet study in the order they run: {@code rounds} of the comparison and
 * {@code aaRounds} of its a/a control (both sides the baseline), the control's rounds at places the
 * seed draws among the others, so that they see the same machine over the study as the comparison
 * does. Rounds are numbered from 1 in the order they run (the {@code round} label: unique in the
 * study); each kind counts its own rounds too, which decides the CPU sets ({@link DuetCpus#sideA}),
 * so that each comparison has its sides on each set equally often.
 *
 * <p>A study run until decided ({@code firstLook > 0}) may stop after any comparison round from
 * {@code firstLook} on, so its control's rounds are drawn among the first {@code firstLook − 1}
 * comparison rounds: the control is complete before the first look, whenever the study stops.
 *
 * @param rounds rounds of the comparison (a study run until decided: at most)
 * @param aaRounds rounds of the a/a control
 * @param seed where the control's rounds go
 * @param firstLook a study run until decided: the comparison round of its first look; 0 for a
 *     fixed number of rounds
 */
public record DuetSchedule(int rounds, int aaRounds, long seed, int firstLook) {
  /** The fewest a/a rounds: one gives no interval. */
  public static final int MIN_AA_ROUNDS = 2;

  /** A duet of a fixed number of rounds. */
  public DuetSchedule(int rounds, int aaRounds, long seed) {
    this(rounds, aaRounds, seed, 0);
  }

  public DuetSchedule {
    if (firstLook < 0 || firstLook > rounds) {
      throw new IllegalArgumentException("first look after round " + firstLook + " of " + rounds);
    }
    if (rounds < 1) {
      throw new IllegalArgumentException("a duet needs at least 1 round, not " + rounds);
    }
    if (aaRounds < MIN_AA_ROUNDS) {
      throw new IllegalArgumentException("--aa-rounds must be at least " + MIN_AA_ROUNDS + ": every duet carries an a/a "
          + "control, and one round of it gives no interval");
    }
  }

  /**
   * One round.
   *
   * @param round its number in the study, from 1, in the order the rounds run
   * @param aa whether it is an a/a control round
   * @param ofKind its number among the rounds of its kind, from 1
   */
  public record Round(int round, boolean aa, int ofKind) {}

  /** Every round, in the order they run. */
  public List<Round> order() {
    List<Boolean> kinds = new ArrayList<>();
    int mixed = firstLook == 0 ? rounds : firstLook - 1;
    for (int i = 0; i < mixed; i++) {
      kinds.add(false);
    }
    for (int i = 0; i < aaRounds; i++) {
      kinds.add(true);
    }
    Collections.shuffle(kinds, new Random(seed));
    for (int i = mixed; i < rounds; i++) {
      kinds.add(false);
    }
    List<Round> order = new ArrayList<>();
    int ab = 0;
    int aa = 0;
    for (int i = 0; i < kinds.size(); i++) {
      boolean control = kinds.get(i);
      order.add(new Round(i + 1, control, control ? ++aa : ++ab));
    }
    return order;
  }
}
