package dev.benchlake.analysis.report;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * A value of each {@link Side} of a comparison, the one way the model spells "baseline and
 * candidate" (or "base and version"): never two parallel fields, an index 0/1, or a pair of lists.
 * Immutable when {@code T} is.
 */
public record Sides<T>(T baseline, T candidate) {
  public static <T> Sides<T> of(T baseline, T candidate) {
    return new Sides<>(baseline, candidate);
  }

  /** {@code value(side)} of each side, baseline first. */
  public static <T> Sides<T> by(Function<Side, ? extends T> value) {
    return new Sides<>(value.apply(Side.BASELINE), value.apply(Side.CANDIDATE));
  }

  public T get(Side side) {
    return side == Side.BASELINE ? baseline : candidate;
  }

  public <U> Sides<U> map(Function<? super T, ? extends U> f) {
    return new Sides<>(f.apply(baseline), f.apply(candidate));
  }

  /** {@code f(side, value)} of each side. */
  public <U> Sides<U> mapWithSide(BiFunction<Side, ? super T, ? extends U> f) {
    return new Sides<>(f.apply(Side.BASELINE, baseline), f.apply(Side.CANDIDATE, candidate));
  }

  /** {@code f(this side's value, other's value)} of each side. */
  public <U, R> Sides<R> zip(Sides<U> other, BiFunction<? super T, ? super U, ? extends R> f) {
    return new Sides<>(f.apply(baseline, other.baseline), f.apply(candidate, other.candidate));
  }

  public boolean both(Predicate<? super T> test) {
    return test.test(baseline) && test.test(candidate);
  }

  public boolean either(Predicate<? super T> test) {
    return test.test(baseline) || test.test(candidate);
  }

  /** Baseline first. */
  public List<T> list() {
    return java.util.Arrays.asList(baseline, candidate);
  }
}
