package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.redaction.Redaction;
import dev.benchlake.core.testing.CommandRun;
import dev.benchlake.loadgen.db.EmbeddedServer;
import dev.benchlake.warehouse.DeltaLogActions;
import dev.benchlake.warehouse.spark.SparkSessions;
import com.fasterxml.jackson.databind.JsonNode;
import dev.benchlake.core.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One canary secret, planted through every way a secret can reach benchlake, then searched for in
 * every byte benchlake wrote. The canary is the password of a PostgreSQL that demands it
 * (scram-sha-256), given through each route benchlake supports (PGPASSWORD, the file PGPASSFILE
 * names, ~/.pgpass under $HOME: one {@code bin/benchlake loadgen} each); and through the ways it
 * must not come in but may: in {@code --jdbc-url} ({@code u:CANARY@}, {@code password=CANARY}),
 * echoed by sysbench and pgbench into lines that ingest rejects (a mytools output whose line 1 is
 * blank, one appended to itself, a near-miss folder name {@code .pk2} that makes them plain sysbench,
 * a plain sysbench and a pgbench output with their command line on top), as the value of
 * {@code --conf} keys of Azure, Google Cloud and S3 on ingest, compare and trend, and as a label
 * ({@code --label password=CANARY}, refused: labels are data, shown as given).
 *
 * <p>Everything after the loadgen runs is two {@code bin/benchlake batch} runs with debug logging:
 * one of the lines that are refused as a batch is checked (every refusal told, nothing run), and one
 * of the rest (one Spark start). Then the
 * canary appears nowhere: not in any command's stdout or stderr (where every log goes), not in any
 * file under the working folder, the run folders, the warehouse, the reports or the exports
 * (searched byte for byte), and not in any value of any warehouse table (read back with Spark,
 * since Parquet compresses what it stores). Where it was, the redaction marker is: in the rejected
 * lines, the batch's echo, the debug log of Spark's settings and the reports' provenance.
 */
@org.junit.jupiter.api.Tag("integration")
class SecretsIT {
  private static final String USER = "bl_secret";
  private static final String CANARY = "Pw-9c1e7d44-canary";
  private static final String DB = "bl_secret_db";
  private static final String MARKER = Redaction.MARKER;
  private static final String AZURE_KEY = "spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net";
  private static final String GCS_KEY = "spark.hadoop.fs.gs.auth.service.account.private.key";
  private static final String S3_KEY = "spark.hadoop.fs.s3a.secret.key";
  private static final String AZURE_SAS = "spark.hadoop.fs.azure.sas.c.acct.blob.core.windows.net";
  /** A Google Cloud service account's key as its JSON file gives it: a PEM block, JSON-escaped, blanks and all. */
  private static final String PEM_KEY = "-----BEGIN PRIVATE KEY-----\\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\\n" + CANARY + " "
      + CANARY + "\\n-----END PRIVATE KEY-----\\n";
  private static final String ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";

  @TempDir
  Path dir;

  private final List<String> outputs = new ArrayList<>();

  private CommandRun benchlake(Map<String, String> env, int exitCode, String... args) throws Exception {
    Map<String, String> all = new HashMap<>(env);
    all.put("BENCHLAKE_LOG_LEVEL", "debug");
    CommandRun r = CommandRun.benchlake(SecretsIT.class, dir.resolve("work"), all, args);
    outputs.add(r.both());
    assertThat(r.exitCode()).as(String.join(" ", args) + "\n" + r.stderr()).isEqualTo(exitCode);
    return r;
  }

  private static void requirePassword(EmbeddedServer server) throws Exception {
    try (Connection c = DriverManager.getConnection(server.jdbcUrl(), server.user(), "");
        Statement st = c.createStatement()) {
      st.execute("create role " + USER + " login password '" + CANARY + "'");
      st.execute("create database " + DB + " owner " + USER);
      try (ResultSet rs = st.executeQuery("show hba_file")) {
        rs.next();
        Path hba = Path.of(rs.getString(1));
        Files.writeString(hba, "host all " + USER + " 127.0.0.1/32 scram-sha-256\nhost all " + USER
            + " ::1/128 scram-sha-256\n" + Files.readString(hba, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
      }
      st.execute("select pg_reload_conf()");
    }
  }

  /**
   * A function of the run's database that the planner folds (immutable) and that raises with a URL
   * carrying the password: any plan of {@code select canary_url()} fails with the server's message.
   */
  private static void plantPlanError(EmbeddedServer server) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:postgresql://localhost:" + server.port() + "/" + DB,
        server.user(), ""); Statement st = c.createStatement()) {
      st.execute("create function canary_url() returns int immutable language plpgsql as $$ begin raise exception"
          + " 'cannot reach postgresql://" + USER + ":" + CANARY + "@localhost/" + DB + "'; end $$");
      st.execute("alter function canary_url() owner to " + USER);
    }
  }

  private static Path privateFile(Path file, String content) throws Exception {
    Files.createDirectories(file.getParent());
    Files.writeString(file, content, StandardCharsets.UTF_8);
    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    return file;
  }

  /** ingest's real tool outputs (its test resources, in the source tree). */
  private static Path fixtures() {
    return CommandRun.launcher(SecretsIT.class).getParent().getParent()
        .resolve("ingest/src/test/resources/dev/benchlake/ingest/fixtures");
  }

  /**
   * A mytools tree whose run.sh echoed the canary as {@code --pgsql-password}, in the three shapes
   * that made the echoed command a rejected line: line 1 blank, an output appended to itself, and a
   * near-miss folder name.
   */
  private Path mytoolsTree() throws Exception {
    Path real = fixtures().resolve("mytools/r1/x.pg1424_embedded.default.pk1");
    Path tree = dir.resolve("inputs/mytools/r1");
    // Two steps' outputs and summaries in the real folder, one output in the near-miss one: enough
    // for each shape, and few runs to ingest.
    copy(real, tree.resolve("x.pg1424_embedded.default.pk1"), "point-query.range100.pk1", "read-only.range10.pk1");
    copy(real, tree.resolve("x.pg1424_embedded.default.pk2"), "sb.o.update-index.range100.pk1.dop1");
    Path pk1 = tree.resolve("x.pg1424_embedded.default.pk1");
    Path blankFirst = pk1.resolve("sb.o.point-query.range100.pk1.dop1");
    Files.writeString(blankFirst, "\n" + Files.readString(blankFirst, StandardCharsets.UTF_8), StandardCharsets.UTF_8);
    Path doubled = pk1.resolve("sb.o.read-only.range10.pk1.dop1");
    String once = Files.readString(doubled, StandardCharsets.UTF_8);
    Files.writeString(doubled, once + once, StandardCharsets.UTF_8);
    assertThat(once).contains("--pgsql-password=" + CANARY);
    return dir.resolve("inputs/mytools");
  }

  /** The files of {@code from} whose names contain one of {@code names}, the echoed password made the canary. */
  private static void copy(Path from, Path to, String... names) throws Exception {
    Files.createDirectories(to);
    try (Stream<Path> files = Files.list(from)) {
      for (Path f : files.toList()) {
        String name = f.getFileName().toString();
        if ((name.startsWith("sb.o.") || name.startsWith("sb.r.")) && Stream.of(names).anyMatch(name::contains)) {
          Files.writeString(to.resolve(name), Files.readString(f, StandardCharsets.UTF_8)
              .replace("--pgsql-password=pw", "--pgsql-password=" + CANARY), StandardCharsets.UTF_8);
        }
      }
    }
  }

  /** A real output of {@code fixture} with the command that made it, canary and all, on top. */
  private Path echoed(String fixture, String command) throws Exception {
    Path file = dir.resolve("inputs").resolve(fixture);
    Files.createDirectories(file.getParent());
    Files.writeString(file, command + "\n" + Files.readString(fixtures().resolve(fixture), StandardCharsets.UTF_8),
        StandardCharsets.UTF_8);
    return file;
  }

  @Test
  void aCanaryPlantedThroughEveryEntryPointAppearsInNoOutputFileOrTable() throws Exception {
    Files.createDirectories(dir.resolve("work"));
    Path warehouse = dir.resolve("warehouse");
    Path reports = dir.resolve("reports");
    Path exports = dir.resolve("exports");
    Path refusedCommands = dir.resolve("secrets/refused.txt");
    CommandRun batch;
    CommandRun refused;
    try (EmbeddedServer server = EmbeddedServer.start(new EmbeddedServer.Options(17, Map.of(), 10, dir))) {
      requirePassword(server);
      String url = "jdbc:postgresql://localhost:" + server.port() + "/" + DB;
      String line = "localhost:" + server.port() + ":" + DB + ":" + USER + ":" + CANARY + "\n";
      Map<String, Map<String, String>> routes = Map.of(
          "pgpassword", Map.of("PGPASSWORD", CANARY),
          "pgpassfile", Map.of("PGPASSFILE", privateFile(dir.resolve("secrets/pgpass"), line).toString()),
          "home", Map.of("HOME", privateFile(dir.resolve("home/.pgpass"), line).getParent().toString()));
      List<String> runDirs = new ArrayList<>();
      for (Map.Entry<String, Map<String, String>> route : routes.entrySet()) {
        Path out = dir.resolve("runs").resolve(route.getKey());
        benchlake(route.getValue(), 0, "loadgen", "--jdbc-url", url, "--user", USER, "--workload", "point-select",
            "--table-size", "100", "--tasks", "40", "--clients", "2", "--label", "route=" + route.getKey(),
            "--out", out.toString());
        runDirs.add(out.toString());
        String manifest = Files.readString(out.resolve("manifest.json"), StandardCharsets.UTF_8);
        assertThat(manifest).as("the manifest's target: the URL without credentials").contains("\"" + url + "\"");
      }

      // Issue 48: a statement whose plan cannot be made, the server's reason quoting a URL with the
      // password (an immutable function raises as the planner folds it): the manifest's step_plans keeps
      // the error, its step_resources what was not measured and why, every message scrubbed.
      plantPlanError(server);
      Path script = privateFile(dir.resolve("secrets/canary.sql"), "select canary_url();\n");
      Path planned = dir.resolve("runs").resolve("plans");
      benchlake(Map.of("PGPASSWORD", CANARY), 0, "loadgen", "--jdbc-url", url, "--user", USER, "--script",
          script.toString(), "--tasks", "6", "--clients", "1", "--label", "route=plans", "--out", planned.toString());
      runDirs.add(planned.toString());
      JsonNode plannedManifest = Json.mapper().readTree(planned.resolve("manifest.json").toFile());
      assertThat(plannedManifest.path("step_plans").findValuesAsText("error")).as("the EXPLAIN's error, scrubbed")
          .isNotEmpty().allSatisfy(e -> assertThat(e).contains("postgresql://", MARKER).doesNotContain(CANARY));
      assertThat(plannedManifest.path("step_resources").findPath("not_measured").toString())
          .contains("a server by URL");

      String conf = String.join(" ", "--conf", AZURE_KEY + "=" + CANARY, "--conf", "'" + GCS_KEY + "=" + PEM_KEY + "'",
          "--conf", S3_KEY + "=" + CANARY);
      String loadgenArgs = " --workload point-select --tasks 10 --out " + dir.resolve("runs/refused");
      // What is refused as the batch is checked, before anything runs: every refusal told in one go.
      List<String> refusedLines = List.of(
          // 1-2: a password in --jdbc-url is refused (exit 2), and neither the refusal nor the echo repeats it.
          "loadgen --jdbc-url jdbc:postgresql://" + USER + ":" + CANARY + "@localhost:" + server.port() + "/" + DB
              + loadgenArgs,
          "loadgen --jdbc-url '" + url + "?user=" + USER + "&password=" + CANARY + "'" + loadgenArgs,
          // 3: a label named as a secret is refused: labels are stored and shown as given.
          "ingest --warehouse " + warehouse + " --conf " + AZURE_SAS + "=" + CANARY + " --label password=" + CANARY + " "
              + runDirs.get(0),
          // 4: a password with '?' and '/' in --jdbc-url: refused before pgjdbc, whose warning printed the URL.
          "loadgen --jdbc-url 'jdbc:postgresql://" + USER + ":" + CANARY + "?/" + CANARY + "@localhost:" + server.port()
              + "/" + DB + "'" + loadgenArgs,
          // 5: an s3a location with an access key: refused, and the refusal shows none of its user info.
          "runs --warehouse 's3a://" + ACCESS_KEY_ID + ":" + CANARY + "/" + CANARY + "@bucket/wh'",
          // 6: a URL pgjdbc warns about (java.util.logging) as it is checked: the warning goes through
          // log4j's redaction.
          "loadgen --jdbc-url jdbc:postgresql://localhost:" + server.port() + "/a/b" + loadgenArgs);
      Files.writeString(refusedCommands, String.join("\n", refusedLines) + "\n", StandardCharsets.UTF_8);
      refused = benchlake(Map.of("PGPASSWORD", CANARY), 2, "batch", refusedCommands.toString());

      List<String> lines = List.of(
          // 1: ingest, with store credentials as --conf (the first Spark command's start the session).
          "ingest --warehouse " + warehouse + " --master local[2] " + conf + " " + String.join(" ", runDirs) + " "
              + mytoolsTree() + " " + echoed("oltp_point_select.txt", "/usr/bin/sysbench --db-driver=pgsql --pgsql-user="
                  + USER + " --pgsql-password=" + CANARY + " --pgsql-host=127.0.0.1 /usr/share/sysbench/oltp_point_select.lua run")
              + " " + echoed("pgbench15-progress.txt", String.join("\n",
                  "PGPASSWORD=" + CANARY + " pgbench -c 2 -T 2 'host=localhost password=" + CANARY + "'",
                  // A URL's password with '#', '?' and '/' (libpq reads it to the '@'), a value cut at ';'
                  // and one of two words, each the canary on both sides of what cut it before.
                  "pgbench 'postgresql://" + USER + ":" + CANARY + "#?/" + CANARY + "@localhost:5432/" + DB + "'",
                  "PGPASSWORD=" + CANARY + ";" + CANARY,
                  "sysbench --mysql-password '" + CANARY + " " + CANARY + "' --mysql-host=localhost oltp_read_only run")),
          // 2-3: compare and trend with the same --conf: their reports' provenance records it redacted.
          "compare --warehouse " + warehouse + " " + conf + " --baseline route=pgpassword --candidate route=pgpassfile"
              + " --out " + reports.resolve("compare"),
          "trend --warehouse " + warehouse + " " + conf + " --by route --order-by started_at --base pgpassword"
              + " --where 'source_format=loadgen,route!=plans'"
              + " --out " + reports.resolve("trend"),
          // 4-6: what reads rejected lines back.
          "rejects --warehouse " + warehouse + " --json",
          "export --warehouse " + warehouse + " --table rejects --format jsonl --out " + exports.resolve("rejects.jsonl"),
          "export --warehouse " + warehouse + " --table runs --format csv --out " + exports.resolve("runs.csv"));
      Path commands = dir.resolve("secrets/commands.txt");
      Files.writeString(commands, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
      batch = benchlake(Map.of("PGPASSWORD", CANARY), 0, "batch", commands.toString());
    }

    assertThat(refused.stderr()).contains(refusedCommands + ": 6 lines are bad input", "must not carry a password",
        "label 'password' names a secret", "WARN  Driver: JDBC URL contains too many / characters");
    for (int n = 1; n <= 6; n++) {
      assertThat(refused.stderr()).as("line " + n).contains(refusedCommands + ": line " + n + ": ");
    }
    assertThat(refused.stderr().lines().filter(l -> l.contains("a location must not carry credentials")))
        .singleElement().asString().contains("s3a://" + MARKER + "@bucket/wh: a location").doesNotContain(ACCESS_KEY_ID);
    // The batch's echo, and the debug log of the session's settings (through the log4j redaction).
    assertThat(batch.stderr()).contains("--conf " + AZURE_KEY + "=" + MARKER + " --conf " + GCS_KEY + "=" + MARKER,
        "with the settings", AZURE_KEY + "=" + MARKER, GCS_KEY + "=" + MARKER);
    // The rejected echoes are stored (and shown) redacted: the accounting kept each line.
    assertThat(batch.stdout()).contains("--pgsql-password=" + MARKER);
    // The reports' provenance: the command line, credentials redacted (the pages escape '=').
    assertThat(Files.readString(reports.resolve("compare/report.html"), StandardCharsets.UTF_8).replace("&#x3D;", "="))
        .contains(AZURE_KEY + "=" + MARKER, GCS_KEY + "=" + MARKER, S3_KEY + "=" + MARKER);
    assertThat(Files.readString(reports.resolve("trend/trend.html"), StandardCharsets.UTF_8).replace("&#x3D;", "="))
        .contains(AZURE_KEY + "=" + MARKER);

    // compare's per-operation figures show what was not measured and why (issue 48).
    assertThat(Files.readString(reports.resolve("compare/report.md"), StandardCharsets.UTF_8))
        .contains("not measured: a server by URL");
    assertThat(outputs).hasSize(6).allSatisfy(o -> assertThat(o).doesNotContain(CANARY));
    assertThat(outputs.get(0)).contains("complete");
    byte[] secret = CANARY.getBytes(StandardCharsets.UTF_8);
    List<Path> searched = new ArrayList<>();
    for (String where : List.of("work", "runs", "warehouse", "reports", "exports")) {
      try (Stream<Path> files = Files.walk(dir.resolve(where))) {
        for (Path f : files.filter(Files::isRegularFile).toList()) {
          assertThat(indexOf(Files.readAllBytes(f), secret)).as(f.toString()).isNegative();
          searched.add(f);
        }
      }
    }
    assertThat(searched).as("manifests, tasks.csv, Delta logs and Parquet files, reports, exports")
        .anyMatch(f -> f.endsWith("manifest.json")).anyMatch(f -> f.toString().endsWith(".parquet"))
        .anyMatch(f -> f.endsWith("report.md")).anyMatch(f -> f.endsWith("report.html"))
        .anyMatch(f -> f.endsWith("trend.html")).anyMatch(f -> f.endsWith("rejects.jsonl"));
    assertThat(Files.readString(exports.resolve("rejects.jsonl"), StandardCharsets.UTF_8)).contains(MARKER);
    // Delta's statistics of a text column are its first 32 characters, in the log: none of a rejected
    // line, its reason or a run's facts.
    for (String table : List.of("rejects", "runs")) {
      assertThat(DeltaLogActions.of(warehouse.resolve(table), "{\"add\"")).as(table).isNotEmpty()
          .allSatisfy(add -> assertThat(add).contains("\\\"run_id\\\":").doesNotContain("raw_line", "reason", "metadata_json"));
    }

    SparkSession spark = SparkSessions.getOrCreate("secrets-it", "local[2]", Map.of());
    try {
      for (String table : List.of("runs", "tasks", "step_metrics", "rejects", "ingest_files")) {
        List<String> rows = spark.read().format("delta").load(warehouse.resolve(table).toString()).toJSON().collectAsList();
        assertThat(rows).as(table).isNotEmpty().noneMatch(r -> r.contains(CANARY));
        if (table.equals("rejects")) {
          assertThat(rows).as("rejected echoes, stored redacted").anyMatch(r -> r.contains("--pgsql-password=" + MARKER))
              .anyMatch(r -> r.contains("'postgresql://" + USER + ":" + MARKER + "@localhost"))
              .anyMatch(r -> r.contains("\"PGPASSWORD=" + MARKER + "\""))
              .anyMatch(r -> r.contains("--mysql-password " + MARKER + " --mysql-host"));
        }
      }
    } finally {
      spark.stop();
    }
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= haystack.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }
}
