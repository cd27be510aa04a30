package dev.benchlake.analysis.trend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Folds a trend's per-step messages that say the same thing of several steps into one line, so that a
 * study of 48 steps whose pairs leave one version out says so once, not 48 times (issue 47).
 */
final class StepMessages {
  private static final String PREFIX = "step ";
  private static final String SEPARATOR = ": ";

  private StepMessages() {}

  /**
   * The messages, in their order, each {@code "step S: text"} whose text another step's message repeats
   * written once where its first step's stood: {@code "steps S1, S2: text"}, or {@code "every step (n): text"}
   * when it is said of each of {@code steps}. A message whose name is not one of {@code steps} (a step and a
   * version, say) is kept as it is.
   *
   * @param steps the trend's steps, to tell a step's name from the text after it
   */
  static List<String> fold(List<String> messages, Collection<String> steps) {
    Set<String> known = Set.copyOf(steps);
    Map<String, Set<String>> stepsOfText = new LinkedHashMap<>();
    for (String m : messages) {
      String step = stepOf(m, known);
      if (step != null) {
        stepsOfText.computeIfAbsent(textOf(m, step), t -> new TreeSet<>()).add(step);
      }
    }
    List<String> folded = new ArrayList<>();
    Set<String> written = new HashSet<>();
    for (String m : messages) {
      String step = stepOf(m, known);
      if (step == null) {
        folded.add(m);
        continue;
      }
      String text = textOf(m, step);
      Set<String> saidOf = stepsOfText.get(text);
      if (saidOf.size() == 1) {
        folded.add(m);
      } else if (written.add(text)) {
        folded.add((saidOf.size() == known.size() ? "every step (" + saidOf.size() + ")"
            : "steps " + String.join(", ", saidOf)) + SEPARATOR + text);
      }
    }
    return folded;
  }

  /** The step a message names, the longest of {@code known} that fits, or null. */
  private static String stepOf(String message, Set<String> known) {
    if (!message.startsWith(PREFIX)) {
      return null;
    }
    String best = null;
    int from = PREFIX.length();
    for (int at = message.indexOf(SEPARATOR, from); at >= 0; at = message.indexOf(SEPARATOR, at + 1)) {
      String name = message.substring(from, at);
      if (known.contains(name)) {
        best = name;
      }
    }
    return best;
  }

  private static String textOf(String message, String step) {
    return message.substring(PREFIX.length() + step.length() + SEPARATOR.length());
  }
}
