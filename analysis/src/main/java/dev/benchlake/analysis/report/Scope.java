package dev.benchlake.analysis.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.core.CpuList;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What a report measured, as its runs record it: the study's design, how an in-window swap moved
 * the sides and how long a move was under way, how much of the machine other work took ({@link
 * OtherWork}), rounds and whether the sides shared a disk ({@link #facts}), and per group of runs
 * (compare's baseline and candidate, trend's
 * versions) the server and its build, the CPUs, the clients and connections, the data, the
 * durability settings and the steps' durations ({@link #lines}). A verdict is about this, not about
 * the servers in general: a duet side is half the machine on a shared disk.
 *
 * <p>Every value is text, made here once, so that report.md, report.html, report.json and a study's
 * stdout say the same. What the runs do not record is {@value #NOT_RECORDED}, never a guess; where
 * a group's runs differ, each workload's value is named ({@code select-update: 1; sysbench: 2}),
 * else every value is given ({@code on | off}).
 *
 * @param facts about all the runs together, in order
 * @param groups the groups' names, in the report's order
 * @param lines per group, in the order of {@code groups}
 * @param planDifferences the statements whose groups ran different plans ({@link PlanDifference});
 *     empty when they agree or no run recorded plans
 * @param profiles the steps whose runs have server CPU profiles ({@link StepProfiles}); empty when none has
 */
public record Scope(List<Fact> facts, List<String> groups, List<Line> lines, List<PlanDifference> planDifferences,
    List<StepProfiles> profiles) {
  public static final String NOT_RECORDED = "not recorded";
  /** The durability settings shown, in this order. */
  static final List<String> DURABILITY = List.of("fsync", "synchronous_commit", "full_page_writes", "wal_sync_method");
  /** Labels a study writes ({@code app.study.StudyLabels}, {@code duet.SwapRule}); read here by name. */
  static final String CONTROL = "control";
  static final String AA = "aa";
  static final String SIDE = "side";
  static final String STUDY_ID = "study_id";
  static final String CPU_SWAP = "cpu_swap";
  static final String CPU_SWAP_PERIOD_MS = "cpu_swap_period_ms";
  static final String CPU_SWAP_MOVER = "cpu_swap_mover";
  static final String IN_WINDOW = "in-window";
  /**
   * The share of the measured time with a CPU-set move under way above which the scope warns. While
   * a move runs both sides are on one set; a side that shares its CPU for a share s of its window
   * loses at most about s/2 of its throughput, so at 5 % up to 2.5 %: half the default equivalence
   * margin (5 %), which the alternating order of the moves need not cancel within one round.
   */
  static final double MOVING_WARN_SHARE = 0.05;

  public Scope {
    facts = List.copyOf(facts);
    groups = List.copyOf(groups);
    lines = List.copyOf(lines);
    planDifferences = List.copyOf(planDifferences);
    profiles = List.copyOf(profiles);
  }

  /** A scope whose runs have no profiles. */
  public Scope(List<Fact> facts, List<String> groups, List<Line> lines, List<PlanDifference> planDifferences) {
    this(facts, groups, lines, planDifferences, List.of());
  }

  /** A scope whose runs' plans agree or were not recorded. */
  public Scope(List<Fact> facts, List<String> groups, List<Line> lines) {
    this(facts, groups, lines, List.of());
  }

  /** One fact about all the runs: {@code key} names it in report.json, {@code label} on a page. */
  public record Fact(String key, String label, String value) {}

  /** One line of the per-group table: a value per group. */
  public record Line(String key, String label, List<String> values) {
    public Line {
      values = List.copyOf(values);
    }
  }

  /**
   * The scope of the runs of {@code groups}.
   *
   * @param all every run of the warehouse (the a/a control's rounds are counted from it)
   * @param groups each group's run ids, in the report's order
   */
  public static Scope of(List<ScopeRun> all, Map<String, List<String>> groups) {
    Map<String, ScopeRun> byId = new LinkedHashMap<>();
    all.forEach(r -> byId.put(r.runId(), r));
    Map<String, List<ScopeRun>> runs = new LinkedHashMap<>();
    groups.forEach((name, ids) -> runs.put(name, ids.stream().map(byId::get).filter(Objects::nonNull).toList()));
    List<ScopeRun> selected = runs.values().stream().flatMap(List::stream).toList();
    String design = merged(selected, Scope::design);
    List<Fact> facts = new ArrayList<>();
    facts.add(new Fact("design", "design", design));
    if (selected.stream().anyMatch(r -> IN_WINDOW.equals(r.label(CPU_SWAP)))) {
      facts.add(new Fact("cpu_moves", "CPU-set moves", cpuMoves(selected)));
    }
    String otherWork = OtherWork.of(all, selected);
    if (otherWork != null) {
      facts.add(new Fact("other_work", "other work on the machine", otherWork));
    }
    facts.add(new Fact("rounds", "rounds", rounds(selected)));
    if (selected.stream().anyMatch(r -> "duet".equals(r.label(Pairing.DESIGN_LABEL)))) {
      facts.add(new Fact("aa_rounds", "a/a control rounds", aaRounds(all, selected)));
    }
    facts.add(new Fact("shared_disk", "sides shared a disk", sharedDisk(selected)));
    String scale = scale(selected);
    if (scale != null) {
      facts.add(new Fact("scale", "scale", scale));
    }
    List<Line> lines = new ArrayList<>();
    line(lines, runs, "runs", "runs", null);
    line(lines, runs, "server", "server", Scope::server);
    line(lines, runs, "build", "build", Scope::build);
    line(lines, runs, "configure", "configure options", Scope::configure);
    line(lines, runs, "cpus", "CPUs", Scope::cpus);
    line(lines, runs, "clients", "clients", Scope::clients);
    line(lines, runs, "connections", "connections", Scope::connections);
    line(lines, runs, "data", "tables × rows", Scope::data);
    line(lines, runs, "durability", "durability", Scope::durability);
    line(lines, runs, "steps", "step (measured window, warm-up)", Scope::steps);
    if (selected.stream().anyMatch(r -> r.manifest().path("step_resources").size() > 0)) {
      line(lines, runs, "resources", "resource figures per operation", Scope::resourceWindow);
    }
    if (selected.stream().anyMatch(r -> profiles(r).findAny().isPresent())) {
      lines.add(new Line("profiles", "CPU profiles (--profile)", runs.values().stream().map(Scope::profiles).toList()));
      facts.add(new Fact("profiled", "server profiles", profiledAlike(runs.values())));
    }
    return new Scope(facts, List.copyOf(groups.keySet()), lines, PlanDifference.of(runs), StepProfiles.of(runs));
  }

  /**
   * Whether perf ran on every run of every group at one rate: then its cost (a few µs of the server's
   * CPU a sample) is the same on both sides of each pair, and cancels in a duet's ratio; else which
   * groups it did not.
   */
  static String profiledAlike(java.util.Collection<List<ScopeRun>> groups) {
    Set<String> rates = new TreeSet<>();
    boolean all = true;
    for (List<ScopeRun> group : groups) {
      for (ScopeRun run : group) {
        List<JsonNode> made = profiles(run).filter(p -> p.hasNonNull("data")).toList();
        all &= !made.isEmpty();
        made.forEach(p -> rates.add(p.path("hz").isNumber() ? p.path("hz").asInt() + " Hz" : NOT_RECORDED));
      }
    }
    if (rates.isEmpty()) {
      return "none made (the CPU profiles line says why)";
    }
    if (all && rates.size() == 1) {
      return "every run at " + rates.iterator().next() + ", both sides alike (perf's cost, a few µs of server CPU a"
          + " sample, is the same on both)";
    }
    return "not every run profiled at one rate (" + String.join(" | ", rates) + "): perf's cost, a few µs"
        + " of server CPU a sample, lands on the profiled runs only, so a side profiled more is slowed more";
  }

  /**
   * The window a run's resource counters cover: the measured one, or (manifests written before it
   * was recorded) the whole step with its warm-up, in the counters and the tasks they are divided by.
   */
  static String resourceWindow(ScopeRun run) {
    JsonNode steps = run.manifest().path("step_resources");
    if (steps.size() == 0) {
      return null;
    }
    for (JsonNode step : steps) {
      if (!"measured".equals(step.path("window").asText())) {
        return "over the whole step, warm-up included (an older loadgen)";
      }
    }
    return "over the measured window";
  }

  private static java.util.stream.Stream<JsonNode> profiles(ScopeRun run) {
    List<JsonNode> found = new ArrayList<>();
    run.manifest().path("step_resources").forEach(step -> {
      if (step.has("profile")) {
        found.add(step.path("profile"));
      }
    });
    return found.stream();
  }

  /** How many of a group's runs have a server profile beside them, or why none has. */
  static String profiles(List<ScopeRun> group) {
    long profiled = group.stream().filter(r -> profiles(r).anyMatch(p -> p.hasNonNull("data"))).count();
    if (profiled > 0) {
      Set<String> rates = new TreeSet<>();
      group.forEach(r -> profiles(r).filter(p -> p.path("hz").isNumber()).forEach(p -> rates.add(p.path("hz").asText())));
      return profiled + " of " + group.size() + " runs" + (rates.isEmpty() ? "" : " at " + String.join(" | ", rates)
          + " Hz") + ": profiles/STEP.perf.data and STEP.txt beside each run's manifest";
    }
    return group.stream().flatMap(Scope::profiles).map(p -> ScopeRun.text(p.path("not_profiled")))
        .filter(Objects::nonNull).findFirst().map(why -> "not profiled: " + why).orElse("none");
  }

  private static void line(List<Line> lines, Map<String, List<ScopeRun>> runs, String key, String label,
      Function<ScopeRun, String> of) {
    lines.add(new Line(key, label, runs.values().stream()
        .map(group -> of == null ? Integer.toString(group.size()) : merged(group, of)).toList()));
  }

  /**
   * One value for {@code runs}: theirs when they agree; each workload's when each agrees within its
   * workload ({@code select-update: 1; sysbench: 2}); else every distinct value ({@code on | off}).
   */
  static String merged(List<ScopeRun> runs, Function<ScopeRun, String> of) {
    Set<String> all = new LinkedHashSet<>();
    Map<String, Set<String>> byWorkload = new LinkedHashMap<>();
    for (ScopeRun run : runs) {
      String value = Objects.requireNonNullElse(of.apply(run), NOT_RECORDED);
      all.add(value);
      byWorkload.computeIfAbsent(Objects.requireNonNullElse(run.workloadName(), "?"), w -> new LinkedHashSet<>())
          .add(value);
    }
    if (all.isEmpty()) {
      return NOT_RECORDED;
    }
    if (all.size() == 1) {
      return all.iterator().next();
    }
    if (byWorkload.size() > 1 && byWorkload.values().stream().allMatch(v -> v.size() == 1)) {
      List<String> each = new ArrayList<>();
      byWorkload.forEach((w, v) -> each.add(w + ": " + v.iterator().next()));
      return String.join("; ", each);
    }
    return String.join(" | ", all);
  }

  /** {@code duet, CPU sets swapped in-window every 100 ms}; the design label, which a study writes. */
  static String design(ScopeRun run) {
    String design = run.label(Pairing.DESIGN_LABEL);
    if (design == null) {
      return null;
    }
    String swap = run.label(CPU_SWAP);
    if (swap == null) {
      return design;
    }
    String period = run.label(CPU_SWAP_PERIOD_MS);
    return design + ", CPU sets swapped " + swap + (period == null ? "" : " every " + period + " ms");
  }

  /**
   * How the in-window swap moved the sides and the share of the measured time a move was under way
   * (the manifests' {@code step_cpu_swaps}, each a pair's, in both its sides' manifests: counted
   * twice, the share is the same), with the largest share in one step; a warning above {@link
   * #MOVING_WARN_SHARE}. Runs that did not record it (older ones) are said, never guessed.
   */
  static String cpuMoves(List<ScopeRun> runs) {
    Set<String> movers = new TreeSet<>();
    long measuredNs = 0;
    long underWayNs = 0;
    long moves = 0;
    long moveNs = 0;
    long longestNs = 0;
    double largestShare = 0;
    int swapped = 0;
    int recorded = 0;
    for (ScopeRun run : runs) {
      if (!IN_WINDOW.equals(run.label(CPU_SWAP))) {
        continue;
      }
      swapped++;
      // Runs before the mover's label were all moved by cgroup groups.
      movers.add("affinity".equals(run.label(CPU_SWAP_MOVER)) ? "by thread affinity (sched_setaffinity: a plain user)"
          : "by cgroup cpuset groups");
      JsonNode steps = run.manifest().path("step_cpu_swaps");
      if (steps.size() == 0) {
        continue;
      }
      recorded++;
      for (JsonNode step : steps) {
        long measured = step.path("measured_ns").asLong();
        long underWay = step.path("under_way_ns").asLong();
        measuredNs += measured;
        underWayNs += underWay;
        moves += step.path("moves").asLong();
        moveNs += step.path("moves").asLong() * step.path("mean_move_ns").asLong();
        longestNs = Math.max(longestNs, step.path("longest_move_ns").asLong());
        if (measured > 0) {
          largestShare = Math.max(largestShare, Math.min(1, (double) underWay / measured));
        }
      }
    }
    String how = String.join(" | ", movers);
    if (recorded == 0) {
      return how + ", the time with a move under way " + NOT_RECORDED;
    }
    double share = measuredNs == 0 ? 0 : Math.min(1, (double) underWayNs / measuredNs);
    String text = String.format(Locale.ROOT, "%s, a move under way %.1f %% of the measured time (at most %.1f %% in "
        + "one step), %.1f ms a move on average, at most %.1f ms", how, share * 100, largestShare * 100,
        moves == 0 ? 0.0 : moveNs / 1e6 / moves, longestNs / 1e6);
    if (recorded < swapped) {
      text += String.format(Locale.ROOT, " (%s for %d of %d runs)", NOT_RECORDED, swapped - recorded, swapped);
    }
    if (largestShare > MOVING_WARN_SHARE) {
      text += String.format(Locale.ROOT, " (warning: over %.0f %% in a step, the sides shared one CPU set that long,"
          + " which the pairing need not cancel)", MOVING_WARN_SHARE * 100);
    }
    return text;
  }

  /** How many rounds the runs span (their {@code round} labels). */
  private static String rounds(List<ScopeRun> runs) {
    Set<String> rounds = new TreeSet<>();
    runs.forEach(r -> {
      if (r.label(Pairing.ROUND_LABEL) != null) {
        rounds.add(r.label(Pairing.ROUND_LABEL));
      }
    });
    return rounds.isEmpty() ? NOT_RECORDED : Integer.toString(rounds.size());
  }

  /** The a/a control's rounds: runs labelled {@code control=aa} of the same study (if it has an id). */
  private static String aaRounds(List<ScopeRun> all, List<ScopeRun> selected) {
    Set<String> studies = new TreeSet<>();
    selected.forEach(r -> studies.add(Objects.requireNonNullElse(r.label(STUDY_ID), "")));
    Set<String> rounds = new TreeSet<>();
    for (ScopeRun run : all) {
      if (AA.equals(run.label(CONTROL)) && studies.contains(Objects.requireNonNullElse(run.label(STUDY_ID), ""))
          && run.label(Pairing.ROUND_LABEL) != null) {
        rounds.add(run.label(Pairing.ROUND_LABEL));
      }
    }
    return rounds.isEmpty() ? "none" : Integer.toString(rounds.size());
  }

  /**
   * A duet's sides ran at the same moment on one machine: both servers' data directories on its
   * disk. Other designs ran their sides one after another. The filesystem itself is not recorded,
   * so the sentence says no more than the design does.
   */
  private static String sharedDisk(List<ScopeRun> runs) {
    Set<String> designs = new TreeSet<>();
    runs.forEach(r -> designs.add(Objects.requireNonNullElse(r.label(Pairing.DESIGN_LABEL), "")));
    if (designs.equals(Set.of("duet"))) {
      Set<String> hosts = new TreeSet<>();
      runs.forEach(r -> hosts.add(Objects.requireNonNullElse(ScopeRun.text(r.manifest().path("client").path("host")),
          "")));
      return "yes: a duet, both servers at the same time on one machine"
          + (hosts.size() == 1 && !hosts.contains("") ? " (" + hosts.iterator().next() + ")" : "");
    }
    if (!designs.contains("duet") && !designs.contains("")) {
      return "no: the sides ran one after another (" + String.join(", ", designs) + ")";
    }
    return NOT_RECORDED;
  }

  /**
   * For the steps of the published PostgreSQL 11→16 study (mdcallag/mytools' {@code <testType>_range=<R>},
   * on loadgen's sysbench workload) with fewer rows a table than it ran
   * ({@value #PUBLISHED_ROWS_PER_TABLE}): that it measures something
   * else, and, where the servers span 11 and a later major, why (issue 47: on the embedded builds
   * with 10,000-row tables, 11 turned a prepared IN list of 100 generic after its first executions,
   * 0.042 ms of planning a statement, while 16 kept a custom plan with all 100 constants, 0.140 ms).
   * Null where the runs do not record their size or are as large.
   */
  static String scale(List<ScopeRun> runs) {
    long largest = 0;
    for (ScopeRun run : runs) {
      JsonNode workload = run.manifest().path("workload");
      boolean mytools = false;
      for (JsonNode step : workload.path("steps")) {
        mytools |= step.asText().contains("_range=");
      }
      if (!"sysbench".equals(ScopeRun.text(workload.path("name"))) || !mytools) {
        continue;
      }
      JsonNode rows = workload.path("parameters").path("table_size");
      if (!rows.isNumber()) {
        return null;
      }
      largest = Math.max(largest, rows.asLong());
    }
    if (largest == 0 || largest >= PUBLISHED_ROWS_PER_TABLE) {
      return null;
    }
    Set<Integer> majors = new TreeSet<>();
    runs.forEach(r -> majors.add(major(server(r))));
    boolean planCache = majors.stream().anyMatch(m -> m > 0 && m <= 11) && majors.stream().anyMatch(m -> m >= 12);
    return String.format(Locale.ROOT, "%,d rows a table at most, against the published 11→16 study's %,d: the"
        + " tables sit in memory and each statement is short, so the steps weigh per-statement costs (planning,"
        + " the plan cache) more than the work that study measured", largest, PUBLISHED_ROWS_PER_TABLE)
        + (planCache ? "; 11 turns a prepared statement generic after 5 executions where a later major may keep a"
            + " custom plan (measured here with 10,000 rows: 16 kept one for an IN list of 100, 0.140 ms of planning"
            + " against 11's 0.042 ms), so point and range steps partly measure planning" : "")
        + (largest < PRESET_ROWS_PER_TABLE ? " (study versions --preset published-small is closer; its --help gives"
            + " the published settings and their cost)" : "");
  }

  /** {@code study versions --preset published-small}'s rows a table. */
  static final long PRESET_ROWS_PER_TABLE = 1_000_000L;

  /** The published study's rows a table (mdcallag/mytools all_small.sh runs, 2023). */
  static final long PUBLISHED_ROWS_PER_TABLE = 20_000_000L;

  /** {@code PostgreSQL 16.4 …} → 16; 0 when it is not that. */
  private static int major(String server) {
    java.util.regex.Matcher m = server == null ? null
        : java.util.regex.Pattern.compile("PostgreSQL (\\d+)").matcher(server);
    return m != null && m.find() ? Integer.parseInt(m.group(1)) : 0;
  }

  /** {@code select version()}, else the runs table's {@code db_version}. */
  static String server(ScopeRun run) {
    String version = ScopeRun.text(run.manifest().path("target").path("server_version"));
    return version != null ? version : run.dbVersion();
  }

  /** Whether loadgen started the server: then it is an embedded (zonky) build, not the one users deploy. */
  static String build(ScopeRun run) {
    JsonNode embedded = run.manifest().path("target").path("embedded");
    if (!embedded.isBoolean()) {
      return null;
    }
    return embedded.asBoolean() ? "embedded (zonky) build" : "the server at the run's JDBC URL (not embedded)";
  }

  /** pg_config's CONFIGURE, which loadgen records where the user may read it (PostgreSQL starts it with a blank). */
  static String configure(ScopeRun run) {
    String configure = ScopeRun.text(run.manifest().path("target").path("build"));
    return configure == null ? null : configure.strip();
  }

  /**
   * A duet side's CPU set ({@code cpus} label), else the CPUs the server was allowed
   * ({@code cpu_affinity}), else the machine's count: a run without a set had the whole machine.
   */
  static String cpus(ScopeRun run) {
    String set = run.label(Pairing.CPUS_LABEL);
    if (set == null) {
      set = ScopeRun.text(run.manifest().path("cpu_affinity").path("server"));
    }
    if (set != null) {
      return "set " + set + " (" + count(set) + ")";
    }
    JsonNode machine = run.manifest().path("client").path("cpus");
    return machine.isNumber() ? "all of the machine's " + machine.asInt() : null;
  }

  private static String count(String set) {
    try {
      int n = CpuList.parse(set).size();
      return n + (n == 1 ? " CPU" : " CPUs");
    } catch (RuntimeException notAList) {
      return "count " + NOT_RECORDED;
    }
  }

  /**
   * loadgen: its clients; a burst has none, it lets its tasks loose at once on its pool ({@link
   * #connections}), so its size is said as such ({@code burst of 1200 tasks}), not read as 1200 clients.
   * Else the runs table's {@code clients}.
   */
  static String clients(ScopeRun run) {
    JsonNode mode = run.manifest().path("mode");
    if ("burst".equals(ScopeRun.text(mode.path("kind")))) {
      String size = ScopeRun.text(run.manifest().path("workload").path("parameters").path("burst_size"));
      return size == null ? null : "burst of " + size + " tasks";
    }
    String clients = ScopeRun.text(mode.path("clients"));
    return clients != null ? clients : run.clients() == null ? null : run.clients().toString();
  }

  /** loadgen's connections: one per client, or a burst's pool; a third-party source does not say. */
  static String connections(ScopeRun run) {
    return ScopeRun.text(run.manifest().path("mode").path("clients"));
  }

  /** {@code 1 table × 10000 rows} from the workload's parameters, as far as they say. */
  static String data(ScopeRun run) {
    JsonNode p = run.manifest().path("workload").path("parameters");
    String tables = ScopeRun.text(p.path("tables"));
    String rows = ScopeRun.text(p.path("table_size"));
    if (tables != null || rows != null) {
      return (tables == null ? "tables " + NOT_RECORDED : tables + ("1".equals(tables) ? " table" : " tables"))
          + " × " + (rows == null ? "rows " + NOT_RECORDED : rows + " rows");
    }
    String total = ScopeRun.text(p.path("rows"));
    return total == null ? null : "tables " + NOT_RECORDED + ", " + total + " rows in all";
  }

  /**
   * The server's durability settings. loadgen records every setting whose source is not the
   * default, so one it does not list is the server's default; other sources record none.
   */
  static String durability(ScopeRun run) {
    JsonNode settings = run.manifest().path("target").path("settings");
    if (!settings.isObject()) {
      return null;
    }
    List<String> each = new ArrayList<>();
    for (String name : DURABILITY) {
      String value = ScopeRun.text(settings.path(name));
      each.add(name + "=" + (value == null ? "default" : value));
    }
    return String.join(", ", each);
  }

  /** The measured window (duration or tasks; reads and writes apart where they were) and the warm-up. */
  static String steps(ScopeRun run) {
    JsonNode mode = run.manifest().path("mode");
    JsonNode p = run.manifest().path("workload").path("parameters");
    if (mode.isMissingNode()) {
      return null;
    }
    String window;
    if (p.has("read_duration_s") || p.has("write_duration_s")) {
      window = "reads " + seconds(p.has("read_duration_s") ? p.path("read_duration_s") : mode.path("duration_s"))
          + ", writes " + seconds(p.has("write_duration_s") ? p.path("write_duration_s") : mode.path("duration_s"));
    } else if (mode.path("duration_s").isNumber()) {
      window = seconds(mode.path("duration_s"));
    } else if (mode.path("tasks").isNumber()) {
      window = mode.path("tasks").asLong() + " tasks";
    } else {
      window = NOT_RECORDED;
    }
    JsonNode warmup = mode.path("warmup_s");
    return window + ", warm-up " + (warmup.isNumber() ? seconds(warmup) : NOT_RECORDED);
  }

  private static String seconds(JsonNode value) {
    return value.isNumber() ? Format.duration(value.asDouble()) : NOT_RECORDED;
  }

  /** A fact's value by key, or null. */
  public String fact(String key) {
    return facts.stream().filter(f -> f.key().equals(key)).map(Fact::value).findFirst().orElse(null);
  }

  /**
   * report.json's {@code scope}: each fact by key, then {@code groups}: per group, each line by key.
   */
  public void json(ObjectNode node) {
    facts.forEach(f -> node.put(f.key(), f.value()));
    ObjectNode byGroup = node.putObject("groups");
    for (int g = 0; g < groups.size(); g++) {
      ObjectNode group = byGroup.putObject(groups.get(g));
      for (Line line : lines) {
        group.put(line.key(), line.values().get(g));
      }
    }
    if (!planDifferences.isEmpty()) {
      PlanDifference.json(planDifferences, node.putArray("plan_differences"));
    }
    if (!profiles.isEmpty()) {
      StepProfiles.json(profiles, node.putArray("profiles"));
    }
  }

  /** Whether the page shows the steps' profiles (a method for the page's template). */
  public boolean hasProfiles() {
    return !profiles.isEmpty();
  }

  /** The sentence above the profiles (a method for the page's template). */
  public String profilesIntro() {
    return StepProfiles.INTRO;
  }

  /** Whether the page shows a block of plans that differ (a method for the page's template). */
  public boolean hasPlanDifferences() {
    return !planDifferences.isEmpty();
  }

  /** The sentence above the plans that differ (a method for the page's template). */
  public String planIntro() {
    return PlanDifference.INTRO;
  }

  /**
   * report.md's block: a heading, the facts as a list, the lines as a table of the groups, the plans that differ
   * (with more than two groups collected by how they differ, {@link PlanDifference#collected}).
   */
  public String markdown() {
    return markdown("Scope");
  }

  /** {@link #markdown()} under its own heading (a report of several studies names whose scope it is). */
  public String markdown(String heading) {
    StringBuilder md = new StringBuilder("## ").append(heading).append("\n\n").append(Markdown.text(INTRO)).append("\n\n");
    facts.forEach(f -> md.append("- ").append(f.label()).append(": ").append(Markdown.text(f.value())).append('\n'));
    md.append('\n');
    List<String> header = new ArrayList<>(List.of(""));
    groups.forEach(g -> header.add(Markdown.codeCell(g)));
    Markdown.row(md, header);
    List<String> rule = new ArrayList<>();
    header.forEach(h -> rule.add("---"));
    Markdown.row(md, rule);
    for (Line line : lines) {
      List<String> cells = new ArrayList<>(List.of(line.label()));
      line.values().forEach(v -> cells.add(Markdown.text(v)));
      Markdown.row(md, cells);
    }
    if (!planDifferences.isEmpty() && groups.size() > 2) {
      md.append("\n### Plans that differ\n\n").append(Markdown.text(PlanDifference.INTRO)).append(" Each group's plans"
          + " are in the JSON's scope.plan_differences and the HTML page.\n\n");
      PlanDifference.collected(planDifferences, Markdown::code, Markdown::text).forEach(l -> md.append("- ").append(l)
          .append('\n'));
    } else if (!planDifferences.isEmpty()) {
      md.append(PlanDifference.markdown(planDifferences));
    }
    if (!profiles.isEmpty()) {
      md.append(StepProfiles.markdown(profiles));
    }
    return md.toString();
  }

  /** The sentence above the block (a method too, for the page's template). */
  public String intro() {
    return INTRO;
  }

  /** The sentence above the block. */
  public static final String INTRO = "What was measured, as the runs recorded it (" + NOT_RECORDED
      + ": they do not say). A verdict is about this setup, not about the servers in general.";

  /**
   * A few lines for a terminal: the facts on one, then one per group (without the long configure
   * options), then one per step whose groups ran different plans; with more than two groups, one
   * per way the plans differ, naming its steps ({@link PlanDifference#collected}).
   */
  public List<String> terminalLines() {
    List<String> out = new ArrayList<>();
    out.add("Scope: " + String.join("; ", facts.stream().map(f -> f.label() + " " + f.value()).toList()) + ".");
    for (int g = 0; g < groups.size(); g++) {
      List<String> parts = new ArrayList<>();
      for (Line line : lines) {
        if (!line.key().equals("configure")) {
          parts.add(line.label() + " " + line.values().get(g));
        }
      }
      out.add(String.format(Locale.ROOT, "  %s: %s.", groups.get(g), String.join("; ", parts)));
    }
    if (groups.size() > 2) {
      PlanDifference.collected(planDifferences, t -> t, t -> t).forEach(l -> out.add("  " + l));
    } else {
      PlanDifference.terminalLines(planDifferences).forEach(line -> out.add("  " + line));
    }
    return out;
  }
}
