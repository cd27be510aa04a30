package dev.benchlake.core.redaction;

import java.util.Arrays;

/**
 * The secret character ranges the rules found in one text, in any order and overlapping (one
 * value may be read by several rules, each the way one consumer reads it); {@link #applyTo}
 * replaces their union, each stretch by one {@link Redaction#MARKER}.
 */
final class Spans {
  private long[] spans = new long[4];
  private int size;

  /** {@code [start, end)}; an empty range is no secret. */
  void add(int start, int end) {
    if (end <= start) {
      return;
    }
    if (size == spans.length) {
      spans = Arrays.copyOf(spans, size * 2);
    }
    spans[size++] = (long) start << 32 | end;
  }

  String applyTo(String text) {
    if (size == 0) {
      return text;
    }
    Arrays.sort(spans, 0, size); // by start, then end
    StringBuilder out = new StringBuilder(text.length());
    int copied = 0;
    int start = -1;
    int end = -1;
    for (int i = 0; i < size; i++) {
      int s = (int) (spans[i] >>> 32);
      int e = (int) spans[i];
      if (s > end) {
        if (start >= 0) {
          out.append(text, copied, start).append(Redaction.MARKER);
          copied = end;
        }
        start = s;
        end = e;
      } else {
        end = Math.max(end, e);
      }
    }
    out.append(text, copied, start).append(Redaction.MARKER);
    return out.append(text, end, text.length()).toString();
  }
}
