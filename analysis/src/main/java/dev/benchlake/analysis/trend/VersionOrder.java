package dev.benchlake.analysis.trend;

import java.math.BigInteger;
import java.util.Comparator;

/**
 * The order of versions: by their dot-separated parts, left to right, each part a number when it
 * is all digits — so {@code 9.6 < 10 < 14.9 < 14.10 < 15} — and a number before any text part,
 * text parts in character order ({@code 2 < linux < windows}). A version that is a prefix of
 * another comes first ({@code 14 < 14.1}); versions equal part by part ({@code 14.01} and
 * {@code 14.1}) fall back to their text, so the order is total and repeatable.
 */
final class VersionOrder implements Comparator<String> {
  static final VersionOrder INSTANCE = new VersionOrder();

  private VersionOrder() {}

  @Override
  public int compare(String a, String b) {
    String[] x = a.trim().split("\\.", -1);
    String[] y = b.trim().split("\\.", -1);
    for (int i = 0; i < Math.min(x.length, y.length); i++) {
      int c = part(x[i], y[i]);
      if (c != 0) {
        return c;
      }
    }
    int c = Integer.compare(x.length, y.length);
    return c != 0 ? c : a.compareTo(b);
  }

  private static int part(String a, String b) {
    boolean numberA = digits(a);
    boolean numberB = digits(b);
    if (numberA && numberB) {
      return new BigInteger(a).compareTo(new BigInteger(b));
    }
    if (numberA != numberB) {
      return numberA ? -1 : 1;
    }
    return a.compareTo(b);
  }

  private static boolean digits(String part) {
    if (part.isEmpty()) {
      return false;
    }
    for (int i = 0; i < part.length(); i++) {
      char c = part.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }
}
