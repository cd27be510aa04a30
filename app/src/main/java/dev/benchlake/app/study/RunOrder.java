package dev.benchlake.app.study;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;

/**
 * The runs of a sequential or interleaved study in the order they run, one definition for every
 * study: each round every side once, interleaved in an order one seeded draw shuffles round after
 * round (so that a drift of the machine spreads over the sides), sequential all runs of the first
 * side, then all of the next.
 */
public final class RunOrder {
  /** One run: its round and its place in the round (both from 1), and whose run it is. */
  public record Slot<T>(int round, int position, T side) {}

  private RunOrder() {}

  public static <T> List<Slot<T>> of(List<T> sides, int rounds, long seed, Design design) {
    List<Slot<T>> order = new ArrayList<>();
    Random random = new Random(seed);
    for (int round = 1; round <= rounds; round++) {
      List<T> thisRound = new ArrayList<>(sides);
      if (design != Design.SEQUENTIAL) {
        Collections.shuffle(thisRound, random);
      }
      for (int i = 0; i < thisRound.size(); i++) {
        order.add(new Slot<>(round, i + 1, thisRound.get(i)));
      }
    }
    if (design == Design.SEQUENTIAL) {
      order.sort(Comparator.comparingInt(Slot::position));
    }
    return order;
  }
}
