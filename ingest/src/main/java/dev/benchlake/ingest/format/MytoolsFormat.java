package dev.benchlake.ingest.format;

import dev.benchlake.core.Labels;
import dev.benchlake.core.cli.BadInputException;
import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.IngestResult.NotResult;
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
import dev.benchlake.warehouse.RejectType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * A mytools result tree (see {@link MytoolsLayout}): every {@code sb.o.<sfx>.dop<N>} file of a
 * result folder is one run of step {@code <testType>_range=<R>}, read by {@link SysbenchParser}
 * after run.sh's two lines; the step's {@code sb.r.*} summaries belong to the run of its lowest dop
 * and are checked against all its dops' outputs ({@link MytoolsSummaryCheck}): a summary that
 * disagrees is a reject with its reason. Every other file is listed as not a result.
 *
 * <p>Each run gets the folder's labels ({@code dbms}, {@code version}, {@code build},
 * {@code config}, {@code pk}), {@code workload=sysbench}, {@code clients=<dop>}, and for
 * {@code pg} folders {@code db_version}/{@code db_major} ({@code x.pg1615_…} → 16.15, 16).
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
    return parent != null && isResultFolder(parent) ? Optional.of("a file of a mytools result folder") : Optional.empty();
  }

  /** A folder named {@code x.<dbms><version>[_<build>].<config>.pk<0|1>} with an sb.o or sb.r file in it. */
  public static boolean isResultFolder(Path dir) {
    if (dir.getFileName() == null || MytoolsLayout.folder(dir.getFileName().toString()).isEmpty() || !Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.anyMatch(p -> {
        String n = p.getFileName().toString();
        return Files.isRegularFile(p) && (MytoolsLayout.rawFile(n).isPresent() || MytoolsLayout.summaryFile(n).isPresent());
      });
    } catch (IOException e) {
      return false;
    }
  }

  @Override
  public List<SourcePlan> plan(List<Path> paths, IngestRequest request) throws IOException {
    return planAll(paths, request).sources();
  }

  @Override
  public Planned planAll(List<Path> paths, IngestRequest request) throws IOException {
    // Folder → the files named in it (null: the whole folder), in the order given.
    Map<Path, Set<Path>> named = new LinkedHashMap<>();
    for (Path path : paths) {
      if (Files.isDirectory(path)) {
        if (!isResultFolder(path)) {
          throw notInFolder(path);
        }
        named.put(path, null);
      } else {
        Path dir = path.getParent();
        if (dir == null || !isResultFolder(dir)) {
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
      planFolder(entry.getKey(), entry.getValue(), sources, notResults);
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

  /** A raw output and what the driver read of it. */
  private record Raw(Path path, RawFile name, Map<String, Double> metrics, Map<String, String> facts) {}

  private void planFolder(Path dir, Set<Path> only, List<SourcePlan> sources, List<NotResult> notResults)
      throws IOException {
    Folder folder = MytoolsLayout.folder(dir.getFileName().toString()).orElseThrow();
    List<Path> files;
    try (Stream<Path> walk = Files.walk(dir)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    Map<String, List<Raw>> rawBySuffix = new TreeMap<>();
    Map<String, List<Path>> summariesBySuffix = new TreeMap<>();
    Map<Path, String> others = new LinkedHashMap<>();
    for (Path file : files) {
      String name = file.getFileName().toString();
      Optional<RawFile> raw = file.getParent().equals(dir) ? MytoolsLayout.rawFile(name) : Optional.empty();
      Optional<SummaryFile> summary = file.getParent().equals(dir) ? MytoolsLayout.summaryFile(name) : Optional.empty();
      if (raw.isPresent()) {
        Raw read = read(file, raw.get());
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
    // What was asked for: the runs named (a summary names its step's lowest-dop run), or all.
    for (Map.Entry<String, List<Raw>> e : rawBySuffix.entrySet()) {
      List<Raw> group = e.getValue();
      group.sort(Comparator.comparingInt(r -> r.name().dop()));
      for (Raw raw : group) {
        boolean lowest = raw == group.get(0);
        List<Path> summaries = lowest ? summariesBySuffix.getOrDefault(e.getKey(), List.of()) : List.of();
        if (only == null || only.contains(raw.path()) || summaries.stream().anyMatch(only::contains)) {
          sources.add(planRun(folder, dir, raw, group, summaries));
        }
      }
    }
    others.forEach((file, why) -> {
      if (only == null || only.contains(file)) {
        notResults.add(new NotResult(file.toString(), why));
      }
    });
  }

  private SourcePlan planRun(Folder folder, Path dir, Raw raw, List<Raw> group, List<Path> summaries) {
    List<PlannedFile> files = new ArrayList<>();
    files.add(PlannedFile.document(raw.path(), new MytoolsOutputParser(raw.name().step())));
    for (Path summary : summaries) {
      SummaryFile name = MytoolsLayout.summaryFile(summary.getFileName().toString()).orElseThrow();
      List<Expected> expected = group.stream().map(r -> MytoolsSummaryCheck.expected(name.metric(), name.testType(),
          r.name().dop(), r.path().getFileName().toString(), r.metrics(), r.facts())).toList();
      files.add(PlannedFile.checking(summary, new MytoolsSummaryParser(name, expected)));
    }
    Map<String, String> dimensions = new LinkedHashMap<>();
    dimensions.put(Labels.WORKLOAD, "sysbench");
    dimensions.put(Labels.CLIENTS, String.valueOf(raw.name().dop()));
    folder.postgresVersion().ifPresent(v -> {
      dimensions.put(Labels.DB_VERSION, v);
      dimensions.put(Labels.DB_MAJOR, v.substring(0, v.indexOf('.')));
    });
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("mytools_folder", dir.getFileName().toString());
    metadata.put("test_type", raw.name().testType());
    metadata.put("range", raw.name().range());
    metadata.put("dop", raw.name().dop());
    metadata.put("summaries_checked", summaries.stream().map(p -> p.getFileName().toString()).toList());
    return SourcePlan.of(NAME, files, new RunInfo("complete", null, null, folder.labels(), dimensions, metadata));
  }

  /** Parses a raw output on the driver (it is a few KB) for the figures its summaries must agree with. */
  private static Raw read(Path file, RawFile name) throws IOException {
    // Decoded as the engine decodes every file: bytes that are not UTF-8 become U+FFFD, not a crash.
    List<String> lines = Bom.strip(new String(Files.readAllBytes(file), StandardCharsets.UTF_8)).lines().toList();
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
