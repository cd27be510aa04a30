package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.benchlake.app.compat.CompatFixtures;
import dev.benchlake.core.Json;
import dev.benchlake.core.cli.ExitCode;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.core.testing.FileTrees;
import dev.benchlake.core.testing.HostileFolders;
import dev.benchlake.warehouse.spark.NoSparkSession;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A damaged or read-only warehouse (issue 25): every command that touches a warehouse gives exit 2
 * and one line naming the damaged file (or the read-only folder), the cause and the next step,
 * before it does any work (no Spark session), and changes nothing. The warehouse is a copy of
 * 0.3.0's frozen one (this build's format: the commands would otherwise go on to read and write
 * it), damaged as a user's could be: its format file overwritten, a commit of its Delta log cut
 * mid-way, a data file its log names deleted, a table's log or commits deleted (issue 44), the whole
 * of it on a read-only file system.
 */
class DamagedWarehouseTest {
  /** Every command that opens a warehouse, by name. */
  static final List<String> COMMANDS = List.of("runs", "export", "rejects", "ingest", "compare", "trend", "upgrade",
      "verify");

  @TempDir
  Path tmp;

  /** A damage, done to a warehouse: the file it damaged. */
  enum Damage {
    /** {@code _benchlake/format.json} overwritten by half of what it held. */
    FORMAT_FILE {
      @Override
      Path apply(Path wh) throws IOException {
        Path file = wh.resolve("_benchlake/format.json");
        Files.writeString(file, "{\"format_version\": 4,\n", StandardCharsets.UTF_8);
        return file;
      }
    },
    /** The runs table's latest commit cut in the middle of a line (its Hadoop checksum file stays). */
    CUT_LOG {
      @Override
      Path apply(Path wh) throws IOException {
        Path file = wh.resolve("runs/_delta_log/00000000000000000005.json");
        byte[] bytes = Files.readAllBytes(file);
        Files.write(file, java.util.Arrays.copyOf(bytes, bytes.length / 2));
        return file;
      }
    },
    /** A data file of the runs table's current version deleted (the table every command reads). */
    DELETED_DATA_FILE {
      @Override
      Path apply(Path wh) throws IOException {
        Path file = firstDataFile(wh, "runs");
        Files.delete(file);
        return file;
      }
    },
    /**
     * A format file saying a format no benchlake wrote (issue 44: {@code -3} was taken for an older
     * format, and verify said "sound: format -3").
     */
    FORMAT_BELOW_ONE {
      @Override
      Path apply(Path wh) throws IOException {
        return Files.writeString(wh.resolve("_benchlake/format.json"), "{\"format_version\": -3}\n", StandardCharsets.UTF_8);
      }
    },
    /**
     * The runs table's log folder deleted, its data files left (issue 44: {@code runs} said "no
     * warehouse", verify "sound", and an ingest started a new runs table: every earlier run gone).
     */
    RUNS_LOG_DELETED {
      @Override
      Path apply(Path wh) throws IOException {
        Path log = wh.resolve("runs/_delta_log");
        FileTrees.delete(log);
        return log;
      }
    },
    /**
     * Every commit of the runs table deleted, its checksums left (issue 44: exit 1 with Delta's "No
     * complete checkpoint found and no delta files found", no file named).
     */
    RUNS_COMMITS_DELETED {
      @Override
      Path apply(Path wh) throws IOException {
        Path log = wh.resolve("runs/_delta_log");
        try (Stream<Path> files = Files.list(log)) {
          for (Path file : files.filter(f -> f.getFileName().toString().matches("\\.?\\d{20}\\.json(\\.crc)?")).toList()) {
            Files.delete(file);
          }
        }
        return log;
      }
    },
    /**
     * The runs table's latest commit deleted, with its Hadoop checksum file: no gap in the versions,
     * only Delta's checksum of the version left (Kernel failed with "checksum file's version should
     * be less than or equal to logSegment's version", exit 1, no file named).
     */
    RUNS_LATEST_COMMIT_DELETED {
      @Override
      Path apply(Path wh) throws IOException {
        Path file = wh.resolve("runs/_delta_log/00000000000000000005.json");
        Files.delete(file);
        Files.delete(wh.resolve("runs/_delta_log/.00000000000000000005.json.crc"));
        return file;
      }
    },
    /** The runs table's latest commit emptied (issue 44: verify named it, ingest wrote a new version on it). */
    EMPTY_COMMIT {
      @Override
      Path apply(Path wh) throws IOException {
        return Files.write(wh.resolve("runs/_delta_log/00000000000000000005.json"), new byte[0]);
      }
    },
    /**
     * Delta's checksum of the runs table's latest version counting a data file more than the log
     * names (issue 44: ingest wrote on, and Delta carried the wrong count into the next checksum).
     */
    WRONG_VERSION_CHECKSUM {
      @Override
      Path apply(Path wh) throws IOException {
        Path file = wh.resolve("runs/_delta_log/00000000000000000005.crc");
        String checksum = Files.readString(file, StandardCharsets.UTF_8);
        Files.writeString(file, checksum.replace("\"numFiles\":6,", "\"numFiles\":7,"), StandardCharsets.UTF_8);
        Files.delete(wh.resolve("runs/_delta_log/.00000000000000000005.crc.crc"));
        return file;
      }
    };

    abstract Path apply(Path wh) throws IOException;
  }

  static Stream<Arguments> damagesAndCommands() {
    List<Arguments> cases = new ArrayList<>();
    for (Damage damage : Damage.values()) {
      for (String command : COMMANDS) {
        cases.add(Arguments.of(damage, command));
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}: {1}")
  @MethodSource("damagesAndCommands")
  void aDamagedWarehouseIsOneLineNamingTheFileExitTwoAndNothingChanged(Damage damage, String command) throws Exception {
    Path wh = warehouse();
    Path file = damage.apply(wh);
    Map<Path, String> before = FileTrees.snapshot(wh);

    CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args(command, wh)));

    assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    if (command.equals("verify")) {
      assertThat(run.stderr().lines().toList()).as("one line on stderr").singleElement().asString()
          .isEqualTo("benchlake verify: the warehouse at " + wh + " is damaged: 1 problem (on stdout); restore those files "
              + "from a backup (verify changed nothing)");
      assertThat(run.stdout().lines().toList()).as("one line per problem").singleElement().asString()
          .startsWith(file + ": ");
    } else {
      assertThat(run.stderr().lines().toList()).as("one line on stderr").singleElement().asString()
          .startsWith("benchlake " + command + ": " + file + ": ")
          .endsWith("the warehouse is damaged: 'benchlake verify --warehouse " + wh + "' lists every damaged file; "
              + "restore them from a backup");
    }
    assertThat(FileTrees.snapshot(wh)).as("nothing changed in the warehouse").isEqualTo(before);
    assertThat(tmp.resolve("out")).as("no output written").doesNotExist();
  }

  /**
   * The readers check the tables they read: a lost tasks file stops what reads or writes tasks,
   * while {@code runs} (which reads none) still lists the runs. So does the tasks table's lost log
   * (issue 44: verify said "sound", export gave no task and an ingest started a new tasks table
   * beside the old files), and the whole table deleted (its runs count its rows).
   */
  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"a data file", "its log", "the whole table"})
  void aDeletedTasksFileOrLogStopsWhatReadsOrWritesTasksButNotRuns(String lost) throws Exception {
    Path wh = warehouse();
    String expected = switch (lost) {
      case "a data file" -> {
        Path file = firstDataFile(wh, "tasks");
        Files.delete(file);
        yield file + ": missing, yet the Delta log of tasks names it";
      }
      case "its log" -> {
        long files;
        try (Stream<Path> all = Files.list(wh.resolve("tasks"))) {
          files = all.filter(f -> f.getFileName().toString().startsWith("part-")).count();
        }
        FileTrees.delete(wh.resolve("tasks/_delta_log"));
        yield wh.resolve("tasks/_delta_log") + ": missing, yet tasks holds " + files + " data files of ";
      }
      default -> {
        FileTrees.delete(wh.resolve("tasks"));
        yield wh.resolve("tasks") + ": missing, yet the committed runs count ";
      }
    };
    Map<Path, String> before = FileTrees.snapshot(wh);
    for (String command : List.of("ingest", "compare", "trend", "upgrade", "verify")) {
      CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args(command, wh)));
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
      String said = command.equals("verify") ? run.stdout() : run.stderr();
      assertThat(said.lines().toList()).as(command).singleElement().asString().contains(expected);
    }
    CommandRun export = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), "export", "--warehouse",
        wh.toString(), "--table", "tasks", "--out", "-"));
    assertThat(export.exitCode()).as(export.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    CommandRun runs = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), "runs", "--warehouse", wh.toString()));
    assertThat(runs.exitCode()).as(runs.stderr()).isZero();
    assertThat(runs.stdout()).contains("compat-pg14-1");
    assertThat(FileTrees.snapshot(wh)).isEqualTo(before);
  }

  /**
   * A runs data file overwritten by as many other bytes, with Hadoop's checksum file beside it left
   * or not (issue 44: verify said sound, and runs failed with "Checksum error", exit 1): plain
   * verify reads sizes only and still calls it sound, and says it read no data file's bytes; {@code
   * verify --deep} and every command that reads the file name it, exit 2, pointing at
   * {@code verify --deep}. (Spark's reads: {@code ReadOnlyWarehouseReadsTest}.)
   */
  @ParameterizedTest(name = "checksum file kept: {0}")
  @ValueSource(booleans = {true, false})
  void aDataFileOverwrittenByAsManyOtherBytesIsNamedByWhatReadsIt(boolean checksumFileKept) throws Exception {
    Path wh = warehouse();
    Path file = firstDataFile(wh, "runs");
    byte[] other = new byte[(int) Files.size(file)];
    new java.util.Random(44).nextBytes(other);
    Files.write(file, other);
    if (!checksumFileKept) {
      Files.delete(file.resolveSibling("." + file.getFileName() + ".crc"));
    }
    String cause = checksumFileKept ? "its bytes do not match its checksum file ." + file.getFileName() + ".crc"
        : "not the Parquet file the log of runs names (it is not a Parquet file.";
    Map<Path, String> before = FileTrees.snapshot(wh);

    CommandRun verify = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args("verify", wh)));
    assertThat(verify.exitCode()).as(verify.stderr()).isZero();
    assertThat(verify.stdout()).contains("sound: format 4", "(their bytes not read: --deep reads them)");
    CommandRun deep = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), "verify", "--deep",
        "--warehouse", wh.toString()));
    assertThat(deep.exitCode()).as(deep.stderr()).isEqualTo(ExitCode.BAD_INPUT);
    assertThat(deep.stdout().lines().toList()).singleElement().asString().startsWith(file + ": " + cause);
    for (String command : List.of("runs", "export", "rejects")) {
      CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args(command, wh)));
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().lines().toList()).as(command).singleElement().asString()
          .startsWith("benchlake " + command + ": " + file + ": " + cause)
          .endsWith("'benchlake verify --deep --warehouse " + wh + "' reads every data file and lists each damaged one; "
              + "restore them from a backup");
    }
    assertThat(FileTrees.snapshot(wh)).isEqualTo(before);
  }

  @ParameterizedTest
  @ValueSource(strings = {"runs", "export", "rejects", "verify"})
  void aReadOnlyWarehouseIsRead(String command) throws Exception {
    Path wh = warehouse();
    try (HostileFolders.Folder readOnly = HostileFolders.readOnlyView(wh, tmp, "ro")) {
      Map<Path, String> before = FileTrees.snapshot(readOnly.path());
      CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args(command, readOnly.path())));
      assertThat(run.exitCode()).as(run.stderr()).isZero();
      String printed = command.equals("export") ? Files.readString(tmp.resolve("out")) : run.stdout();
      assertThat(printed).contains(switch (command) {
        case "verify" -> "sound: format 4";
        case "rejects" -> "3 rejected lines in 1 file";
        default -> "compat-pg14-1";
      });
      assertThat(FileTrees.snapshot(readOnly.path())).isEqualTo(before);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"ingest", "upgrade"})
  void aReadOnlyWarehouseRefusesAWriteWithOneLine(String command) throws Exception {
    Path wh = warehouse();
    try (HostileFolders.Folder readOnly = HostileFolders.readOnlyView(wh, tmp, "ro")) {
      Map<Path, String> before = FileTrees.snapshot(readOnly.path());
      CommandRun run = NoSparkSession.during(() -> CommandRun.of(Benchlake.commandLine(), args(command, readOnly.path())));
      assertThat(run.exitCode()).as(run.stderr()).isEqualTo(ExitCode.BAD_INPUT);
      assertThat(run.stderr().lines().toList()).singleElement().asString()
          .startsWith("benchlake " + command + ": the warehouse at " + readOnly.path() + " is read-only (")
          .contains(readOnly.mounted() ? "a read-only file system" : "no permission to write")
          .contains("remount it read-write");
      assertThat(FileTrees.snapshot(readOnly.path())).isEqualTo(before);
    }
  }

  /** The command's arguments on the warehouse {@code wh}: what a user would type (outputs under tmp/out). */
  private String[] args(String command, Path wh) throws IOException {
    String dir = wh.toString();
    String out = tmp.resolve("out").toString();
    return switch (command) {
      case "export" -> new String[] {command, "--warehouse", dir, "--table", "runs", "--out", out};
      case "ingest" -> new String[] {command, "--warehouse", dir, newRun().toString()};
      case "compare" -> new String[] {command, "--warehouse", dir, "--baseline", "db_major=14", "--candidate", "db_major=17",
          "--out", out};
      case "trend" -> new String[] {command, "--warehouse", dir, "--by", "db_major", "--where", "campaign=compat", "--out", out};
      default -> new String[] {command, "--warehouse", dir};
    };
  }

  /** 0.3.0's loadgen run folder under a run id the warehouse does not have: an ingest would add it. */
  private Path newRun() throws IOException {
    Path run = tmp.resolve("run");
    if (!Files.exists(run)) {
      CompatFixtures.copy("0.3.0", "run", run);
      Path manifest = run.resolve("manifest.json");
      ObjectNode json = (ObjectNode) Json.mapper().readTree(Files.readString(manifest, StandardCharsets.UTF_8));
      json.put("run_id", "a-new-run");
      Files.writeString(manifest, Json.mapper().writeValueAsString(json), StandardCharsets.UTF_8);
    }
    return run;
  }

  /** A copy of 0.3.0's warehouse as one that has been written to has it: with its lock folder. */
  private Path warehouse() throws IOException {
    Path wh = CompatFixtures.copy("0.3.0", "warehouse", tmp.resolve("wh"));
    Files.createDirectories(wh.resolve("_locks"));
    return wh;
  }

  private static Path firstDataFile(Path wh, String table) throws IOException {
    try (Stream<Path> files = Files.list(wh.resolve(table))) {
      return files.filter(f -> f.getFileName().toString().startsWith("part-")).sorted().findFirst().orElseThrow();
    }
  }
}
