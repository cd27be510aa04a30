package dev.benchlake.app.study.duet;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The rounds of a duet study in the order they run: {@code rounds} of the comparison and
 * {@code aaRounds} of its a/a control (both sides the baseline), and in each round which CPU set
 * side a runs on. Rounds are numbered from 1 in the order they run (the {@code round} label: unique
 * in the study); each kind counts its own rounds too.
 *
 * <p>The control's rounds are spread through the study: the {@code rounds + aaRounds} places are
 * cut into {@code aaRounds} equal stretches and the seed draws one place in each, so that the
 * control sees the same machine over the study as the comparison does (a control run before the
 * first look saw only the study's first minutes). A study run until decided may stop before the
 * control's last rounds; it runs them then (the study's {@code UntilDecided}), so the
 * control is complete whenever a look stops the study.
 *
 * <p>The CPU sets. Within each kind, rounds go in blocks of two, one each way round; the seed draws
 * which way comes first in each block (RMIT randomises the order so that what drift remains is
 * noise, not bias; strict alternation lined a periodic disturbance up with one set). Any {@code 2k}
 * rounds of a kind have {@code k} each way, so the crossover fit's two pairs each way are there
 * from round 4 on, as with alternation. The comparison's sets and the control's come from streams
 * of their own, so a study's comparison has the same sets whatever its {@code --aa-rounds}.
 *
 * @param rounds rounds of the comparison (a study run until decided: at most)
 * @param aaRounds rounds of the a/a control
 * @param seed where the control's rounds go and which set each round's side a takes
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
   * @param aOnSetOne whether side a runs on set one in it (side b on set two), else the other way round
   */
  public record Round(int round, boolean aa, int ofKind, boolean aOnSetOne) {}

  /** Every round, in the order they run. */
  public List<Round> order() {
    int all = rounds + aaRounds;
    boolean[] control = new boolean[all];
    Random places = new Random(seed);
    for (int i = 0; i < aaRounds; i++) {
      int from = (int) ((long) i * all / aaRounds);
      int to = (int) ((long) (i + 1) * all / aaRounds);
      control[from + places.nextInt(to - from)] = true;
    }
    // SplittableRandom mixes its output: java.util.Random's first boolean is the same for nearby seeds.
    SetOrder abSets = new SetOrder(new SplittableRandom(seed ^ 0x5e7_0_ab5e75L));
    SetOrder aaSets = new SetOrder(new SplittableRandom(seed ^ 0x5e7_0_aa5e75L));
    List<Round> order = new ArrayList<>();
    int ab = 0;
    int aa = 0;
    for (int i = 0; i < all; i++) {
      int ofKind = control[i] ? ++aa : ++ab;
      order.add(new Round(i + 1, control[i], ofKind, (control[i] ? aaSets : abSets).aOnSetOne()));
    }
    return order;
  }

  /** The remaining rounds of the control after the {@code ran} first rounds of {@link #order}. */
  public List<Round> controlAfter(int ran) {
    List<Round> order = order();
    return order.subList(Math.min(ran, order.size()), order.size()).stream().filter(Round::aa).toList();
  }

  /** One kind's sets, round by round: blocks of two, one each way, the block's first drawn. */
  private static final class SetOrder {
    private final SplittableRandom random;
    private boolean first;
    private int inBlock;

    SetOrder(SplittableRandom random) {
      this.random = random;
    }

    boolean aOnSetOne() {
      if (inBlock == 0) {
        first = random.nextBoolean();
      }
      boolean one = inBlock == 0 ? first : !first;
      inBlock = (inBlock + 1) % 2;
      return one;
    }
  }
}
