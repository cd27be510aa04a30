package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * A statement of a step whose groups ran different plans: a different plan hash (other nodes,
 * conditions or settings; costs and constants aside), or a generic plan on one side and a custom
 * one on the other. Read from the runs' {@code step_plans} (loadgen's manifest, kept whole in
 * {@code runs.metadata_json}); a step whose plans agree, and runs that recorded none (older
 * loadgens, other tools), give none.
 *
 * @param step the step (task name)
 * @param statement the statement as its workload prepared it
 * @param sentence what differs, in words, with each group's plan hash and kind
 * @param plans per group that recorded it, in the report's order: one plan it ran (the first run's)
 */
public record PlanDifference(String step, String statement, String sentence, List<GroupPlan> plans) {
  public PlanDifference {
    plans = List.copyOf(plans);
  }

  /**
   * @param planHashes every plan hash the group's runs recorded, sorted
   * @param planCache {@code generic}, {@code custom}, both ({@code custom | generic}), or {@code not recorded}
   * @param plan the plan's text as the group's first run explained it
   */
  public record GroupPlan(String group, String planHashes, String planCache, String plan) {}

  /** The statements whose groups ran different plans, by step and statement in first-seen order. */
  static List<PlanDifference> of(Map<String, List<ScopeRun>> runs) {
    Map<List<String>, Map<String, Seen>> byStatement = new LinkedHashMap<>();
    runs.forEach((group, groupRuns) -> {
      for (ScopeRun run : groupRuns) {
        for (JsonNode p : run.manifest().path("step_plans")) {
          String step = ScopeRun.text(p.path("step"));
          String statement = ScopeRun.text(p.path("statement"));
          String hash = ScopeRun.text(p.path("plan_hash"));
          if (step == null || statement == null || hash == null) {
            continue; // not explained: nothing to compare
          }
          Seen seen = byStatement.computeIfAbsent(List.of(step, statement), k -> new LinkedHashMap<>())
              .computeIfAbsent(group, g -> new Seen(new TreeSet<>(), new TreeSet<>(), ScopeRun.text(p.path("plan"))));
          seen.hashes().add(hash);
          String cache = ScopeRun.text(p.path("plan_cache"));
          if (cache != null) {
            seen.caches().add(cache);
          }
        }
      }
    });
    List<PlanDifference> out = new ArrayList<>();
    byStatement.forEach((key, groups) -> {
      if (groups.size() < 2) {
        return;
      }
      boolean hashes = groups.values().stream().map(Seen::hashes).distinct().count() > 1;
      // A kind a server did not say (before 14, a plan without a visible parameter) differs from none.
      boolean caches = groups.values().stream().map(Seen::caches).filter(c -> !c.isEmpty()).distinct().count() > 1;
      if (!hashes && !caches) {
        return;
      }
      List<GroupPlan> plans = new ArrayList<>();
      List<String> each = new ArrayList<>();
      groups.forEach((group, seen) -> {
        String kind = seen.caches().isEmpty() ? Scope.NOT_RECORDED : String.join(" | ", seen.caches());
        String hashList = String.join(" | ", seen.hashes());
        plans.add(new GroupPlan(group, hashList, kind, Objects.requireNonNullElse(seen.plan(), "")));
        each.add(group + " " + hashList + " (" + kind + ")");
      });
      String what = hashes && caches ? "different plans, generic against custom"
          : hashes ? "different plans" : "the same plan, generic against custom";
      out.add(new PlanDifference(key.get(0), key.get(1), "Step " + key.get(0) + " ran " + what + ": "
          + String.join("; ", each) + ".", plans));
    });
    return List.copyOf(out);
  }

  private record Seen(TreeSet<String> hashes, TreeSet<String> caches, String plan) {}

  /**
   * A terminal's lines: one per step, not one per statement. A sysbench step prepares its statement
   * once per table, so the 30-minute version study printed 20 such lines for 6 steps; a step of
   * one statement keeps its sentence, a step of several says how many differ and each group's kinds
   * (the report lists every statement with its plans).
   */
  static List<String> terminalLines(List<PlanDifference> differences) {
    Map<String, List<PlanDifference>> byStep = new LinkedHashMap<>();
    differences.forEach(d -> byStep.computeIfAbsent(d.step(), s -> new ArrayList<>()).add(d));
    List<String> out = new ArrayList<>();
    byStep.forEach((step, statements) -> {
      if (statements.size() == 1) {
        out.add(statements.get(0).sentence());
        return;
      }
      boolean hashes = statements.stream()
          .anyMatch(d -> d.plans().stream().map(GroupPlan::planHashes).distinct().count() > 1);
      Map<String, TreeSet<String>> kinds = new LinkedHashMap<>();
      statements.forEach(d -> d.plans().forEach(p -> kinds.computeIfAbsent(p.group(), g -> new TreeSet<>())
          .addAll(List.of(p.planCache().split(" \\| ")))));
      List<String> each = new ArrayList<>();
      kinds.forEach((group, k) -> each.add(group + " " + String.join(" | ", k)));
      out.add("Step " + step + " ran " + (hashes ? "different plans" : "the same plans, of other kinds") + " for "
          + statements.size() + " of its statements: " + String.join("; ", each) + " (the report shows each plan).");
    });
    return out;
  }

  /** report.json's {@code scope.plan_differences}. */
  static void json(List<PlanDifference> differences, ArrayNode array) {
    for (PlanDifference d : differences) {
      ObjectNode o = array.addObject().put("step", d.step()).put("statement", d.statement())
          .put("sentence", d.sentence());
      ArrayNode plans = o.putArray("plans");
      d.plans().forEach(p -> plans.addObject().put("group", p.group()).put("plan_hashes", p.planHashes())
          .put("plan_cache", p.planCache()).put("plan", p.plan()));
    }
  }

  /** report.md's block: a heading, then per statement its sentence and each group's plan as a code block. */
  static String markdown(List<PlanDifference> differences) {
    StringBuilder md = new StringBuilder("\n### Plans that differ\n\n").append(Markdown.text(INTRO)).append("\n\n");
    for (PlanDifference d : differences) {
      md.append("- ").append(Markdown.text(d.sentence())).append(" Statement: ").append(Markdown.code(d.statement()))
          .append("\n");
      for (GroupPlan p : d.plans()) {
        md.append("\n  ").append(Markdown.code(p.group())).append(" (").append(Markdown.text(p.planCache()))
            .append("):\n\n").append(fenced(p.plan())).append('\n');
      }
    }
    return md.toString();
  }

  /**
   * The statements that differ the same way collected on one line each, naming their steps, not one
   * line (and one plan per group) per statement: what a report of more than two groups gives (a
   * version study of six majors would otherwise give six plans for each of dozens of statements).
   * {@code Different plans, generic against custom (generic: 11; custom: 12, 13): `a`, `b` (3 statements).}
   *
   * @param code how a step is quoted: {@link Markdown#code} or as it is
   * @param text how the rest is written: {@link Markdown#text} or as it is
   */
  static List<String> collected(List<PlanDifference> differences, java.util.function.UnaryOperator<String> code,
      java.util.function.UnaryOperator<String> text) {
    Map<String, List<PlanDifference>> byHow = new LinkedHashMap<>();
    differences.forEach(d -> byHow.computeIfAbsent(how(d), k -> new ArrayList<>()).add(d));
    List<String> lines = new ArrayList<>();
    byHow.forEach((how, same) -> {
      List<String> steps = same.stream().map(PlanDifference::step).distinct().toList();
      lines.add(text.apply(how) + ": " + String.join(", ", steps.stream().map(code).toList())
          + (same.size() == steps.size() ? "" : " (" + same.size() + " statements)") + ".");
    });
    return lines;
  }

  /** {@code Different plans, generic against custom (generic: 11; custom: 12, 13)}: what differs and each group's kind. */
  private static String how(PlanDifference d) {
    boolean hashes = d.plans().stream().map(GroupPlan::planHashes).distinct().count() > 1;
    Map<String, List<String>> byKind = new LinkedHashMap<>();
    d.plans().forEach(p -> byKind.computeIfAbsent(p.planCache(), k -> new ArrayList<>()).add(p.group()));
    boolean caches = byKind.keySet().stream().filter(k -> !k.equals(Scope.NOT_RECORDED)).count() > 1;
    String what = hashes && caches ? "Different plans, generic against custom"
        : hashes ? "Different plans" : "The same plan, generic against custom";
    return what + " (" + String.join("; ", byKind.entrySet().stream()
        .map(e -> e.getKey() + ": " + String.join(", ", e.getValue())).toList()) + ")";
  }

  /** The sentence above the plans. */
  public static final String INTRO = "Steps whose statements were planned differently by the groups (EXPLAIN after "
      + "each run's step, as its prepared statements ran; hashes ignore costs, row estimates and constants).";

  /** A fenced block, indented under its list item, with a fence longer than any backtick run in {@code text}. */
  private static String fenced(String text) {
    int longest = 0;
    int run = 0;
    for (int i = 0; i < text.length(); i++) {
      run = text.charAt(i) == '`' ? run + 1 : 0;
      longest = Math.max(longest, run);
    }
    String fence = "`".repeat(Math.max(3, longest + 1));
    StringBuilder out = new StringBuilder("  ").append(fence).append('\n');
    text.lines().forEach(line -> out.append("  ").append(line).append('\n'));
    return out.append("  ").append(fence).append('\n').toString();
  }
}
