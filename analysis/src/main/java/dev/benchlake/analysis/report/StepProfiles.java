package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A step's server CPU profiles ({@code loadgen --profile}, the studies' {@code --profile}): per
 * group, a link to each profiled run's summary ({@code profiles/STEP.txt} beside its manifest, with
 * its {@code perf.data}), and the functions with the largest share of the samples side by side:
 * each group's top {@value #TOP} by its mean share, with every group's share and, for two groups,
 * the difference. Read from the manifests' {@code step_resources[].profile} (their top 10 symbols);
 * descriptive: what the servers spent their CPU on, not a call.
 *
 * @param step the step (task name)
 * @param groups per group that profiled the step, in the report's order
 * @param top the functions, the largest share in any group first
 */
public record StepProfiles(String step, List<Group> groups, List<Function> top) {
  /** The functions taken from each group's profiles. */
  static final int TOP = 5;

  public StepProfiles {
    groups = List.copyOf(groups);
    top = List.copyOf(top);
  }

  /**
   * One group's profiles of the step.
   *
   * @param rate the samples a second of CPU time ({@code 1000 Hz}; several rates joined by {@code |})
   * @param runs its profiled runs, in its order
   */
  public record Group(String group, String rate, List<Run> runs) {
    public Group {
      runs = List.copyOf(runs);
    }

    /** {@code 2 runs at 1000 Hz}. */
    public String about() {
      return runs.size() + (runs.size() == 1 ? " run" : " runs") + " at " + rate;
    }
  }

  /**
   * A profiled run: its name in the report ({@code round 2, side b}, else its id) and its files
   * (where the runs table says its folder is; null when it does not say).
   */
  public record Run(String name, String summaryUri, String dataUri, String summary) {
    public Run {
      summaryUri = summaryUri == null ? "" : summaryUri;
      dataUri = dataUri == null ? "" : dataUri;
      summary = summary == null ? "" : summary;
    }

    /** Whether its folder is known, so that its summary can be linked (a method for the page's template). */
    public boolean linked() {
      return !summaryUri.isEmpty();
    }
  }

  /**
   * A function's share of the samples in each group ({@code 12.3%}, or {@code —} where no run of the
   * group had it in its top 10), and the second group's share less the first's in percentage points.
   */
  public record Function(String dso, String symbol, List<String> shares, String difference) {
    public Function {
      shares = List.copyOf(shares);
    }
  }

  /** What the block says above its steps. */
  public static final String INTRO = "What each group's servers spent their CPU on in the step's measured window "
      + "(perf record of the server's processes, both sides alike): each profiled run's summary, and each group's top "
      + TOP + " functions by their mean share of a run's samples (a function outside a run's top 10 counts 0 there);"
      + " the difference is in percentage points. Descriptive, not calls.";

  /** The steps any run of the groups profiled, in first-seen order. */
  static List<StepProfiles> of(Map<String, List<ScopeRun>> runs) {
    Map<String, Map<String, List<Profiled>>> byStep = new LinkedHashMap<>();
    runs.forEach((group, groupRuns) -> {
      for (ScopeRun run : groupRuns) {
        for (JsonNode step : run.manifest().path("step_resources")) {
          JsonNode profile = step.path("profile");
          String name = ScopeRun.text(step.path("step"));
          if (name != null && profile.hasNonNull("data")) {
            byStep.computeIfAbsent(name, k -> new LinkedHashMap<>())
                .computeIfAbsent(group, k -> new ArrayList<>()).add(new Profiled(run, profile));
          }
        }
      }
    });
    List<String> order = List.copyOf(runs.keySet());
    List<StepProfiles> out = new ArrayList<>();
    byStep.forEach((step, groups) -> out.add(of(step, order, groups)));
    return out;
  }

  private record Profiled(ScopeRun run, JsonNode profile) {}

  private static StepProfiles of(String step, List<String> order, Map<String, List<Profiled>> byGroup) {
    List<Group> groups = new ArrayList<>();
    List<String> names = order.stream().filter(byGroup::containsKey).toList();
    Map<String, Map<List<String>, Double>> meanShares = new LinkedHashMap<>();
    for (String group : names) {
      List<Profiled> profiled = byGroup.get(group);
      Set<String> rates = new TreeSet<>();
      List<Run> links = new ArrayList<>();
      Map<List<String>, Double> sums = new LinkedHashMap<>();
      for (Profiled p : profiled) {
        JsonNode hz = p.profile().path("hz");
        rates.add(hz.isNumber() ? hz.asInt() + " Hz" : Scope.NOT_RECORDED);
        links.add(run(p));
        for (JsonNode s : p.profile().path("top")) {
          sums.merge(List.of(s.path("dso").asText(), s.path("symbol").asText()), s.path("share").asDouble(),
              Double::sum);
        }
      }
      sums.replaceAll((k, v) -> v / profiled.size());
      meanShares.put(group, sums);
      groups.add(new Group(group, String.join(" | ", rates), links));
    }
    Set<List<String>> chosen = new LinkedHashSet<>();
    meanShares.values().forEach(shares -> shares.entrySet().stream()
        .sorted(Map.Entry.<List<String>, Double>comparingByValue().reversed()).limit(TOP)
        .forEach(e -> chosen.add(e.getKey())));
    List<Function> top = new ArrayList<>();
    chosen.stream().sorted(Comparator.comparingDouble((List<String> k) -> -meanShares.values().stream()
        .mapToDouble(s -> s.getOrDefault(k, 0.0)).max().orElse(0))).forEach(k -> {
          List<String> shares = new ArrayList<>();
          meanShares.values().forEach(s -> shares.add(s.containsKey(k) ? share(s.get(k)) : Format.DASH));
          String difference = "";
          if (names.size() == 2) {
            double d = meanShares.get(names.get(1)).getOrDefault(k, 0.0) - meanShares.get(names.get(0)).getOrDefault(k, 0.0);
            difference = String.format(Locale.ROOT, "%+.1f pp", d);
          }
          top.add(new Function(k.get(0), k.get(1), shares, difference));
        });
    return new StepProfiles(step, groups, top);
  }

  private static String share(double percent) {
    return String.format(Locale.ROOT, "%.1f%%", percent);
  }

  /** A run's name: its round and side (a study's labels), else its id; its files where its folder is known. */
  private static Run run(Profiled p) {
    ScopeRun run = p.run();
    String round = run.label(Pairing.ROUND_LABEL);
    String side = run.label(Scope.SIDE);
    String name = round == null ? run.runId()
        : ("aa".equals(run.label(Scope.CONTROL)) ? "a/a round " : "round ") + round + (side == null ? "" : ", side " + side);
    String summary = ScopeRun.text(p.profile().path("summary"));
    String data = ScopeRun.text(p.profile().path("data"));
    Path dir = run.runDir() == null ? null : Path.of(run.runDir());
    return new Run(name, dir == null || summary == null ? null : dir.resolve(summary).toUri().toString(),
        dir == null ? null : dir.resolve(data).toUri().toString(), summary);
  }

  /** report.json's {@code scope.profiles}. */
  static void json(List<StepProfiles> all, ArrayNode array) {
    for (StepProfiles p : all) {
      ObjectNode o = array.addObject().put("step", p.step());
      ObjectNode groups = o.putObject("groups");
      for (Group g : p.groups()) {
        ObjectNode group = groups.putObject(g.group()).put("rate", g.rate());
        ArrayNode runs = group.putArray("runs");
        g.runs().forEach(r -> runs.addObject().put("run", r.name()).put("summary", r.linked() ? r.summaryUri()
            : r.summary()).put("data", r.linked() ? r.dataUri() : null));
      }
      ArrayNode top = o.putArray("top");
      for (Function f : p.top()) {
        ObjectNode fn = top.addObject().put("dso", f.dso()).put("symbol", f.symbol());
        ObjectNode shares = fn.putObject("shares");
        for (int i = 0; i < p.groups().size(); i++) {
          shares.put(p.groups().get(i).group(), f.shares().get(i));
        }
        if (!f.difference().isEmpty()) {
          fn.put("difference", f.difference());
        }
      }
    }
  }

  /** report.md's block: a heading, then per step each group's runs as links and the functions' table. */
  static String markdown(List<StepProfiles> all) {
    StringBuilder md = new StringBuilder("\n### Server CPU profiles\n\n").append(Markdown.text(INTRO)).append("\n\n");
    for (StepProfiles p : all) {
      md.append(Markdown.code(p.step())).append(":\n\n");
      for (Group g : p.groups()) {
        md.append("- ").append(Markdown.code(g.group())).append(" (").append(g.about()).append("): ");
        List<String> links = new ArrayList<>();
        g.runs().forEach(r -> links.add(!r.linked() ? Markdown.text(r.name()) + " (" + r.summary() + ")"
            : "[" + Markdown.text(r.name()) + "](" + r.summaryUri() + ")"));
        md.append(String.join(", ", links)).append('\n');
      }
      md.append('\n');
      List<String> header = new ArrayList<>(List.of("function"));
      p.groups().forEach(g -> header.add(Markdown.codeCell(g.group())));
      boolean difference = p.groups().size() == 2;
      if (difference) {
        header.add("difference");
      }
      Markdown.row(md, header);
      List<String> rule = new ArrayList<>(List.of("---"));
      header.subList(1, header.size()).forEach(h -> rule.add("---:"));
      Markdown.row(md, rule);
      for (Function f : p.top()) {
        List<String> cells = new ArrayList<>(List.of(Markdown.codeCell(f.symbol()) + " (" + Markdown.text(f.dso()) + ")"));
        cells.addAll(f.shares());
        if (difference) {
          cells.add(f.difference());
        }
        Markdown.row(md, cells);
      }
      md.append('\n');
    }
    return md.toString();
  }

  /** Whether the functions' table has a difference column (two groups; a method for the page's template). */
  public boolean hasDifference() {
    return groups.size() == 2;
  }
}
