package dev.benchlake.ingest.format;

import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.format.MytoolsLayout.Folder;
import dev.benchlake.ingest.format.MytoolsLayout.RawFile;
import dev.benchlake.ingest.format.MytoolsLayout.SummaryFile;
import dev.benchlake.ingest.format.MytoolsSummaryCheck.Expected;
import dev.benchlake.ingest.format.SourcePlan.PlannedFile;
import dev.benchlake.ingest.format.SourcePlan.RunInfo;
import dev.benchlake.ingest.parse.ParseSink;
import dev.benchlake.ingest.parse.ParsedMetric;
import dev.benchlake.ingest.parse.ParsedTask;
import dev.benchlake.ingest.source.Bom;
import dev.benchlake.ingest.source.FileTree;
import dev.benchlake.warehouse.RejectType;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import dev.benchlake.warehouse.fs.Storage;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;

/**
 * A mytools result tree (see {@link MytoolsLayout}): a result folder is one run, as run.sh makes
 * it (one server, one configuration, the whole step set). Each {@code sb.o.<sfx>.dop<N>} file in it
 * is a step, {@code <testType>_range=<R>} (with {@code _dop=<N>} when it ran at another dop than
 * most: {@link RawFile#stepIn}), read by {@link SysbenchParser} after run.sh's two lines; a step's
 * {@code sb.r.*} summaries are checked against all its dops' outputs ({@link MytoolsSummaryCheck}):
 * a summary that disagrees is a reject with its reason. Every other file is listed as not a result.
 *
 * <p>The run gets the folder's labels ({@code dbms}, {@code version}, {@code build},
 * {@code config}, {@code pk}), {@code workload=sysbench}, {@code clients=<the dop most of its
 * steps ran at>}, and for {@code pg} folders {@code db_version}/{@code db_major}
 * ({@code x.pg1615_…} → 16.15, 16). Release 0.3.0 stored each output as a run of its own: such runs
 * hold the folder's files, and an ingest of the folder replaces them only on {@code --replace}
 * ({@link SourcePlan#folder}).
 *
 * <p>A raw output without results (sysbench failed: a FATAL line and no figures) is listed as not a
 * result with its first message, so one failed step does not stop the ingest of a tree of forty.
 */
public final class MytoolsFormat implements SourceFormat {
  public static final String NAME = "mytools";

  @Override
  public String name() {
    return NAME;
  }

  /** Any file of a result folder (its folder, not its content, says what it is). */
  @Override
  public Optional<String> sniff(Probe probe) {
    Path parent = probe.path().getParent();
    return parent != null && isResultFolder(parent, probe.storage()) ? Optional.of("a file of a mytools result folder")
        : Optional.empty();
  }

  /** A folder named {@code x.<dbms><version>[_<build>].<config>.pk<0|1>} with an sb.o or sb.r file in it. */
  public static boolean isResultFolder(Path dir, Storage files) {
    if (dir.getName().isEmpty() || MytoolsLayout.folder(dir.getName()).isEmpty()) {
      return false;
    }
    try {
      return files.isDirectory(dir) && files.list(dir).stream().anyMatch(s -> s.isFile()
          && (MytoolsLayout.rawFile(s.getPath().getName()).isPresent() || MytoolsLayout.summaryFile(s.getPath().getName()).isPresent()));
    } catch (IOException e) {
      return false;
    }
  }

  /** {@link #isResultFolder(Path, Storage)} of a local folder (tests). */
  public static boolean isResultFolder(java.nio.file.Path dir) {
    return isResultFolder(Storage.location(dir), Storage.on(new org.apache.hadoop.conf.Configuration()));
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, PlanContext context) throws IOException {
    return planAll(paths, context).sources();
  }

  @Override
  public Planned planAll(List<Path> paths, PlanContext context) throws IOException {
    // Folder → the files named in it (null: the whole folder), in the order given.
    Map<Path, Set<Path>> named = new LinkedHashMap<>();
    Storage storage = context.storage();
    for (Path path : paths) {
      if (storage.isDirectory(path)) {
        if (!isResultFolder(path, storage)) {
          throw notInFolder(path);
        }
        named.put(path, null);
      } else {
        Path dir = path.getParent();
        if (dir == null || !isResultFolder(dir, storage)) {
          throw notInFolder(path);
        }
        if (!named.containsKey(dir) || named.get(dir) != null) {
          named.computeIfAbsent(dir, d -> new LinkedHashSet<>()).add(path);
        }
      }
    }
    List<SourcePlan> sources = new ArrayList<>();
    List<NotResult> notResults = new ArrayList<>();
    for (Map.Entry<Path, Set<Path>> entry : named.entrySet()) {
      planFolder(entry.getKey(), entry.getValue(), sources, notResults, storage);
    }
    if (sources.isEmpty()) {
      throw new BadInputException(paths.get(0) + ": no sysbench results in "
          + (paths.size() == 1 ? "it" : "these " + paths.size() + " inputs") + " (no sb.o.<testType>.range<R>.pk<N>.dop<T>"
          + " file with figures)");
    }
    return new Planned(sources, notResults);
  }

  private static BadInputException notInFolder(Path path) {
    return new BadInputException(path + ": not in a mytools result folder (x.<dbms><version>_<build>.<config>.pk<0|1>"
        + " with sb.o.* or sb.r.* files in it)");
  }

  /** Every file under {@code dir}, at any depth, each real file once; links not followed are listed. */
  private static void walk(Path dir, Storage storage, List<Path> out, List<NotResult> notResults) throws IOException {
    FileTree tree = new FileTree(storage);
    tree.walk(dir, new FileTree.Visitor() {
      @Override
      public boolean enter(Path folder) {
        return true;
      }

      @Override
      public void file(Path file) {
        out.add(file);
      }

      @Override
      public void notFollowed(Path link, String why) {
        notResults.add(NotResult.link(link.toString(), why));
      }
    });
    tree.finish();
  }

  /** A raw output and what the driver read of it. */
  private record Raw(Path path, RawFile name, Map<String, Double> metrics, Map<String, String> facts) {}

  private void planFolder(Path dir, Set<Path> only, List<SourcePlan> sources, List<NotResult> notResults,
      Storage storage) throws IOException {
    Folder folder = MytoolsLayout.folder(dir.getName()).orElseThrow();
    List<Path> files = new ArrayList<>();
    walk(dir, storage, files, notResults);
    files.sort(null);
    Map<String, List<Raw>> rawBySuffix = new TreeMap<>();
    Map<String, List<Path>> summariesBySuffix = new TreeMap<>();
    Map<Path, String> others = new LinkedHashMap<>();
    Map<String, Path> mets = new TreeMap<>();
    Captures captures = new Captures();
    for (Path file : files) {
      String name = file.getName();
      Optional<RawFile> raw = file.getParent().equals(dir) ? MytoolsLayout.rawFile(name) : Optional.empty();
      Optional<SummaryFile> summary = file.getParent().equals(dir) ? MytoolsLayout.summaryFile(name) : Optional.empty();
      Optional<String> metOf = file.getParent().equals(dir) ? MytoolsLayout.metOf(name) : Optional.empty();
      if (metOf.isPresent()) {
        mets.put(metOf.get(), file);
      } else if (file.getParent().equals(dir) && Captures.isCapture(name)) {
        // Read or listed once the step's sb.met is known.
        captures.add(file);
      } else if (raw.isPresent()) {
        Raw read = read(file, raw.get(), storage);
        if (read.metrics().isEmpty()) {
          others.put(file, "sysbench output without results" + read.facts().getOrDefault("first_message", ""));
        } else {
          rawBySuffix.computeIfAbsent(raw.get().suffix(), s -> new ArrayList<>()).add(read);
        }
      } else if (summary.isPresent()) {
        summariesBySuffix.computeIfAbsent(summary.get().suffix(), s -> new ArrayList<>()).add(file);
      } else {
        others.put(file, file.getParent().equals(dir) ? MytoolsLayout.notResultReason(name) : "in a sub-folder of a result folder");
      }
    }
    summariesBySuffix.forEach((suffix, summaries) -> {
      if (!rawBySuffix.containsKey(suffix)) {
        summaries.forEach(s -> others.put(s, "summary without a raw output to check it against (no sb.o." + suffix
            + ".dop<N> with figures beside it)"));
      }
    });
    rawBySuffix.values().forEach(group -> group.sort(Comparator.comparingInt(r -> r.name().dop())));
    List<Path> results = new ArrayList<>();
    rawBySuffix.forEach((suffix, group) -> {
      group.forEach(r -> results.add(r.path()));
      results.addAll(summariesBySuffix.getOrDefault(suffix, List.of()));
    });
    // The folder is the run: a result file named alone brings the whole of it (a part would be a
    // run of other content, landing beside the folder's when that is ingested too).
    if (!results.isEmpty() && (only == null || results.stream().anyMatch(only::contains))) {
      sources.add(planRun(folder, dir, rawBySuffix, summariesBySuffix, mets, captures, others));
    }
    captures.vmstat.values().forEach(f -> others.put(f, MytoolsLayout.notResultReason(f.getName())));
    captures.iostat.values().forEach(f -> others.put(f, MytoolsLayout.notResultReason(f.getName())));
    mets.forEach((output, met) -> others.put(met, "resource summary (an.sh) without a sysbench output read beside it ("
        + output + " with figures)"));
    others.forEach((file, why) -> {
      if (only == null || only.contains(file)) {
        notResults.add(new NotResult(file.toString(), why));
      }
    });
  }

  /** A folder's sb.vm and sb.io captures, by the name of the sb.o of their step. */
  private static final class Captures {
    final Map<String, Path> vmstat = new TreeMap<>();
    final Map<String, Path> iostat = new TreeMap<>();

    static boolean isCapture(String name) {
      return MytoolsLayout.vmstatOf(name).isPresent() || MytoolsLayout.iostatOf(name).isPresent();
    }

    void add(Path file) {
      MytoolsLayout.vmstatOf(file.getName()).ifPresent(output -> vmstat.put(output, file));
      MytoolsLayout.iostatOf(file.getName()).ifPresent(output -> iostat.put(output, file));
    }
  }

  /**
   * A step's whole-machine figures: its sb.met, an.sh's summary, as its author published it; where
   * there is none, an.sh's derivation from the sb.vm and sb.io beside it (an.sh needs both, and writes
   * nothing without its iostat capture), so that a step has one figure of each name. Captures not read
   * stay in {@code captures} (listed as not results); those beside an sb.met are listed so.
   */
  private static void machineFigures(Raw raw, String step, Path met, Captures captures, List<PlannedFile> files,
      Map<Path, String> others) {
    String output = raw.path().getName();
    Integer cpus = Digits.smallInt(raw.facts().getOrDefault("cpus", ""));
    int cpuCount = cpus == null ? 0 : cpus;
    if (met != null) {
      files.add(PlannedFile.companion(met, new MytoolsMetParser(step, cpuCount)));
      for (Path capture : new Path[] {captures.vmstat.remove(output), captures.iostat.remove(output)}) {
        if (capture != null) {
          others.put(capture, MytoolsLayout.notResultReason(capture.getName()) + "; the step's sb.met, an.sh's summary"
              + " of it as published, is read instead");
        }
      }
      return;
    }
    Double qps = raw.metrics().get("qps");
    if (!captures.vmstat.containsKey(output) || !captures.iostat.containsKey(output) || qps == null || qps <= 0
        || raw.name().testType().startsWith("scan")) {
      // Listed as not results: an.sh would write nothing, or (scan) divides by rows scanned, not by queries.
      return;
    }
    files.add(PlannedFile.companion(captures.vmstat.remove(output), new MytoolsVmstatParser(step, qps, cpuCount)));
    files.add(PlannedFile.companion(captures.iostat.remove(output), new MytoolsIostatParser(step, qps)));
  }

  /**
   * The folder's one run: each raw output is a step ({@link RawFile#stepIn}), followed by the
   * summaries that check its test's outputs. Two outputs that would give one step (a range written
   * {@code range0100} beside {@code range100}) keep the first; the other is listed as not read.
   * An output's {@code sb.met} (or else its sb.vm and sb.io: {@link #machineFigures}) follows it, a
   * companion of the run; what is read is taken out of {@code mets} and {@code captures}.
   */
  private SourcePlan planRun(Folder folder, Path dir, Map<String, List<Raw>> rawBySuffix,
      Map<String, List<Path>> summariesBySuffix, Map<String, Path> mets, Captures captures, Map<Path, String> others) {
    int runDop = MytoolsLayout.runDop(rawBySuffix.values().stream().flatMap(List::stream).map(Raw::name).toList())
        .orElseThrow();
    List<PlannedFile> files = new ArrayList<>();
    List<Map<String, Object>> steps = new ArrayList<>();
    List<String> summariesChecked = new ArrayList<>();
    Map<String, Path> stepFiles = new LinkedHashMap<>();
    for (Map.Entry<String, List<Raw>> e : rawBySuffix.entrySet()) {
      List<Raw> group = e.getValue();
      for (Raw raw : group) {
        String step = raw.name().stepIn(runDop, folder.pk());
        Path same = stepFiles.putIfAbsent(step, raw.path());
        if (same != null) {
          others.put(raw.path(), "a second output of step " + step + " (" + same.getName() + " is read)");
          continue;
        }
        files.add(PlannedFile.document(raw.path(), MytoolsOutputParser.stepOfRun(step)));
        machineFigures(raw, step, mets.remove(raw.path().getName()), captures, files, others);
        Map<String, Object> entry = new LinkedHashMap<>();
        entry.put("step", step);
        entry.put("file", raw.path().getName());
        entry.put("test_type", raw.name().testType());
        entry.put("range", raw.name().range());
        entry.put("dop", raw.name().dop());
        steps.add(entry);
      }
      for (Path summary : summariesBySuffix.getOrDefault(e.getKey(), List.of())) {
        SummaryFile name = MytoolsLayout.summaryFile(summary.getName()).orElseThrow();
        List<Expected> expected = group.stream().map(r -> MytoolsSummaryCheck.expected(name.metric(), name.testType(),
            r.name().dop(), r.path().getName(), r.metrics(), r.facts())).toList();
        files.add(PlannedFile.checking(summary, new MytoolsSummaryParser(name, expected)));
        summariesChecked.add(summary.getName());
      }
    }
    Map<String, String> dimensions = new LinkedHashMap<>();
    dimensions.put(Labels.WORKLOAD, Workloads.SYSBENCH);
    dimensions.put(Labels.CLIENTS, String.valueOf(runDop));
    folder.postgresVersion().ifPresent(v -> {
      dimensions.put(Labels.DB_VERSION, v);
      dimensions.put(Labels.DB_MAJOR, v.substring(0, v.indexOf('.')));
    });
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("mytools_folder", dir.getName());
    metadata.put("dop", runDop);
    metadata.put("steps", steps);
    metadata.put("summaries_checked", summariesChecked);
    return SourcePlan.ofFolder(NAME, dir, files, new RunInfo("complete", null, null, folder.labels(), dimensions,
        metadata));
  }

  /** Parses a raw output on the driver (it is a few KB) for the figures its summaries must agree with. */
  private static Raw read(Path file, RawFile name, Storage storage) throws IOException {
    // Decoded as the engine decodes every file: bytes that are not UTF-8 become U+FFFD, not a crash.
    List<String> lines = Bom.strip(storage.readString(file)).lines().toList();
    Map<String, Double> metrics = new TreeMap<>();
    Map<String, String> facts = new TreeMap<>();
    new MytoolsOutputParser(name.step()).parse(lines, new ParseSink() {
      @Override
      public void task(long lineNo, ParsedTask task) {
      }

      @Override
      public void metric(long lineNo, ParsedMetric m) {
        if (m.intervalStartS() == null && m.bucket() == null) {
          metrics.put(m.metric(), m.value());
        }
      }

      @Override
      public void reject(long lineNo, String rawLine, RejectType type, String column, String reason) {
      }

      @Override
      public void metadata(long lineNo) {
      }

      @Override
      public void fact(String runPart, String key, String value) {
        facts.put(key, value);
        if (key.startsWith("message.") && !facts.containsKey("first_message")) {
          facts.put("first_message", ": " + value);
        }
      }
    });
    return new Raw(file, name, metrics, facts);
  }
}
