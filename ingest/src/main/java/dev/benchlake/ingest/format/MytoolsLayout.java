package dev.benchlake.ingest.format;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of a mytools result tree (mdcallag/mytools, {@code bench/sysbench.lua}): what
 * {@code run.sh} writes and the folder its callers move the files into. Pure: names in, meanings out.
 *
 * <ul>
 *   <li>Folder {@code x.<dbms><version>[_<build>].<config>.pk<0|1>}, e.g. {@code x.pg1622_o2nofp.cx10a.pk1}
 *       ({@code x.pg151.x7.pk1} in older trees, without a build).
 *   <li>{@code sb.o.<testType>.range<R>.pk<N>.dop<threads>}: one sysbench invocation, a step of the
 *       folder's run (the step is {@code <testType>_range=<R>}, see {@link RawFile#stepIn}; test
 *       types may have dots: {@code point-query.pre}).
 *   <li>{@code sb.r.<trx|qps|rtavg|rtmax|rt95>.<testType>.range<R>.pk<N>}: one line, a figure per
 *       dop, then {@code <engine> <testType> range=<R>}.
 *   <li>{@code sb.met.<testType>.range<R>.pk<N>.dop<threads>}: an.sh's whole-machine figures of the
 *       {@code sb.o} of the same name ({@link MytoolsMetParser}).
 *   <li>{@code sb.vm.<sfx>.dop<T>} and {@code sb.io.<sfx>.dop<T>}: the {@code vmstat 1} and
 *       {@code iostat -y -kx 1} captures an.sh reads ({@link MytoolsVmstatParser}, {@link MytoolsIostatParser}).
 *   <li>Anything else (prepare logs, server statistics, configs) is not a result.
 * </ul>
 */
public final class MytoolsLayout {
  private static final Pattern DIR = Pattern.compile("x\\.([A-Za-z]+)(\\d+)(?:_([^.]+))?\\.([^.]+)\\.pk([01])");
  private static final Pattern RAW = Pattern.compile("sb\\.o\\.(.+)\\.range(\\d+)\\.pk([01])\\.dop(\\d+)");
  private static final String RAW_PREFIX = "sb.o.";
  private static final String MET = "sb.met.";
  private static final String VMSTAT = "sb.vm.";
  private static final String IOSTAT = "sb.io.";
  private static final Pattern SUMMARY = Pattern.compile("sb\\.r\\.(trx|qps|rtavg|rtmax|rt95)\\.(.+)\\.range(\\d+)\\.pk([01])");

  /** What the files that are not results are, by name prefix (run.sh's names, then its callers'). */
  private static final Map<String, String> NOT_RESULTS = notResults();

  private MytoolsLayout() {}

  /**
   * A result folder's name.
   *
   * @param dbms e.g. {@code pg}, {@code my}
   * @param version the digits as written, e.g. {@code 1622} (16.22), {@code 181} (18.1), {@code 8407}
   * @param build the build name after {@code _}, or null
   * @param config the configuration's name
   * @param pk {@code 0} or {@code 1} ({@code pk0}: secondary-index tables)
   */
  public record Folder(String dbms, String version, String build, String config, String pk) {
    /**
     * The labels every run of the folder gets: {@code dbms}, {@code version}, {@code build} (when
     * there is one), {@code config} and {@code pk}.
     */
    public Map<String, String> labels() {
      Map<String, String> labels = new LinkedHashMap<>();
      labels.put("dbms", dbms);
      labels.put("version", version);
      if (build != null) {
        labels.put("build", build);
      }
      labels.put("config", config);
      labels.put("pk", pk);
      return labels;
    }

    /**
     * PostgreSQL's version, for {@code pg} folders from 10 on: the first two digits are the major,
     * the rest the minor ({@code 1622} → 16.22, {@code 181} → 18.1); empty otherwise (other DBMSs'
     * digits are ambiguous: {@code my8032} is 8.0.32).
     */
    public Optional<String> postgresVersion() {
      if (!dbms.equals("pg") || version.length() < 3 || version.charAt(0) == '0') {
        return Optional.empty();
      }
      // The minor as a number (leading zeros dropped), by text: a folder name may hold any number of digits.
      String minor = version.substring(2).replaceFirst("^0+(?=\\d)", "");
      return Optional.of(version.substring(0, 2) + "." + minor);
    }
  }

  /**
   * One sysbench run's output: one step of its folder's run.
   *
   * @param dop the number of threads
   */
  public record RawFile(String testType, int range, String pk, int dop) {
    /** {@code <testType>_range=<R>}, as the study names its steps. */
    public String step() {
      return MytoolsLayout.step(testType, range);
    }

    /**
     * The step's name in its folder's run: {@link #step()}, with {@code _dop=<T>} when it ran at
     * another dop than the run's (all_small.sh's first {@code point-query.pre} at dop 2), and
     * {@code _pk=<N>} when its name's pk is not the folder's (run.sh never writes one: a file
     * copied in by hand). The study's own steps keep their names, and with them their trends
     * across releases.
     */
    public String stepIn(int runDop, String folderPk) {
      return step() + (dop == runDop ? "" : "_dop=" + dop) + (pk.equals(folderPk) ? "" : "_pk=" + pk);
    }

    /** {@code <testType>.range<R>.pk<N>}: what it shares with the step's summaries. */
    public String suffix() {
      return MytoolsLayout.suffix(testType, range, pk);
    }
  }

  /** A one-line summary of a step over its dops; {@code metric} is trx, qps, rtavg, rtmax or rt95. */
  public record SummaryFile(String metric, String testType, int range, String pk) implements java.io.Serializable {
    public String suffix() {
      return MytoolsLayout.suffix(testType, range, pk);
    }
  }

  /**
   * A folder run's dop ({@code clients}): the one most of its outputs share, the lowest of those
   * tied (run.sh's thread lists ascend). Empty for no outputs.
   */
  public static OptionalInt runDop(List<RawFile> outputs) {
    Map<Integer, Integer> counts = new TreeMap<>();
    outputs.forEach(o -> counts.merge(o.dop(), 1, Integer::sum));
    int best = -1;
    int bestCount = 0;
    for (Map.Entry<Integer, Integer> e : counts.entrySet()) {
      if (e.getValue() > bestCount) {
        best = e.getKey();
        bestCount = e.getValue();
      }
    }
    return bestCount == 0 ? OptionalInt.empty() : OptionalInt.of(best);
  }

  public static String step(String testType, int range) {
    return testType + "_range=" + range;
  }

  static String suffix(String testType, int range, String pk) {
    return testType + ".range" + range + ".pk" + pk;
  }

  public static Optional<Folder> folder(String name) {
    Matcher m = DIR.matcher(name);
    return m.matches() ? Optional.of(new Folder(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5))) : Optional.empty();
  }

  public static Optional<RawFile> rawFile(String name) {
    Matcher m = RAW.matcher(name);
    if (!m.matches() || m.group(1).startsWith("pw.")) {
      // sb.o.pw.<sfx>: run.sh's post-write log, whose name never ends in .dopN, but a test type never starts so.
      return Optional.empty();
    }
    Integer range = Digits.smallInt(m.group(2));
    Integer dop = Digits.smallInt(m.group(4));
    return range == null || dop == null ? Optional.empty() : Optional.of(new RawFile(m.group(1), range, m.group(3), dop));
  }

  /** The name of the sb.o an {@code sb.met.<sfx>.dop<T>} belongs to ({@code sb.o.<sfx>.dop<T>}), if it is one. */
  public static Optional<String> metOf(String name) {
    return outputOf(MET, name);
  }

  /** The name of the sb.o an {@code sb.vm.<sfx>.dop<T>} (vmstat over that step) belongs to, if it is one. */
  public static Optional<String> vmstatOf(String name) {
    return outputOf(VMSTAT, name);
  }

  /** The name of the sb.o an {@code sb.io.<sfx>.dop<T>} (iostat over that step) belongs to, if it is one. */
  public static Optional<String> iostatOf(String name) {
    return outputOf(IOSTAT, name);
  }

  private static Optional<String> outputOf(String prefix, String name) {
    if (!name.startsWith(prefix)) {
      return Optional.empty();
    }
    String output = RAW_PREFIX + name.substring(prefix.length());
    return rawFile(output).isPresent() ? Optional.of(output) : Optional.empty();
  }

  public static Optional<SummaryFile> summaryFile(String name) {
    Matcher m = SUMMARY.matcher(name);
    if (!m.matches()) {
      return Optional.empty();
    }
    Integer range = Digits.smallInt(m.group(3));
    return range == null ? Optional.empty() : Optional.of(new SummaryFile(m.group(1), m.group(2), range, m.group(4)));
  }

  /** Why a file of a result folder is not a result, e.g. "vmstat capture". */
  public static String notResultReason(String name) {
    for (Map.Entry<String, String> e : NOT_RESULTS.entrySet()) {
      if (name.startsWith(e.getKey())) {
        return e.getValue();
      }
    }
    return "not one of run.sh's result files (sb.o.*.dopN, sb.r.*)";
  }

  private static Map<String, String> notResults() {
    Map<String, String> m = new LinkedHashMap<>();
    for (String[] entry : List.of(
        new String[] {"sb.prepare.o.", "prepare log"},
        new String[] {"sb.prepare.vm.", "vmstat capture of the prepare step"},
        new String[] {"sb.prepare.io.", "iostat capture of the prepare step"},
        new String[] {"sb.prepare.met.", "prepare step's resource summary (an.sh)"},
        new String[] {"sb.prepare.", "prepare log"},
        new String[] {"sb.vm.", "vmstat capture"},
        new String[] {"sb.io.", "iostat capture"},
        new String[] {"sb.met.", "resource summary (an.sh over vmstat and iostat)"},
        new String[] {"sb.time.", "/usr/bin/time output"},
        new String[] {"sb.o.pw.", "post-write log (vacuum, analyze, checkpoint)"},
        new String[] {"sb.perf.", "perf capture"},
        new String[] {"sb.pg.conf.", "server configuration (show all)"},
        new String[] {"sb.pgs.", "server statistics (pg_stat_*)"},
        new String[] {"sb.pgi.", "server I/O statistics (pg_statio_*)"},
        new String[] {"sb.es.", "engine status"},
        new String[] {"sb.is.", "index list"},
        new String[] {"sb.gv.", "global variables"},
        new String[] {"sb.gs.", "global status"},
        new String[] {"sb.ts.", "table status and sizes"},
        new String[] {"sb.sz.", "database size (du)"},
        new String[] {"sb.cleanup.", "cleanup log"},
        new String[] {"conf.diff", "server configuration (differences from the defaults)"},
        new String[] {"o.ini", "server start log"},
        new String[] {"my.cnf", "server configuration"})) {
      m.put(entry[0], entry[1]);
    }
    return m;
  }
}
