package dev.benchlake.core.redaction;

import static dev.benchlake.core.redaction.Redaction.MARKER;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one redaction rule: what it replaces, what it must leave alone, and that it stays linear. */
class RedactionTest {
  private static final String X = MARKER;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
      # passwords in URLs, any scheme
      jdbc:postgresql://u:CANARY@db.example:5432/bench                 | jdbc:postgresql://u:*@db.example:5432/bench
      postgresql://u:CANARY@h/db?sslmode=require                       | postgresql://u:*@h/db?sslmode=require
      s3a://AKIA:CANARY@bucket/results                                 | s3a://AKIA:*@bucket/results
      wasbs://u:CANARY@c.blob.core.windows.net/x                       | wasbs://u:*@c.blob.core.windows.net/x
      gs://u:CANARY@bucket/x and abfs://v:CANARY@c.dfs.core.windows.net | gs://u:*@bucket/x and abfs://v:*@c.dfs.core.windows.net
      jdbc:postgresql://h/db?user=u&password=CANARY&ssl=true           | jdbc:postgresql://h/db?user=u&password=*&ssl=true
      jdbc:sqlserver://h;user=u;password=CANARY;databaseName=x         | jdbc:sqlserver://h;user=u;password=*;databaseName=x
      host=h port=5432 pwd=CANARY dbname=x                             | host=h port=5432 pwd=* dbname=x
      https://a.blob.core.windows.net/c/f?sv=2020-08-04&sig=CANARY&se=x | https://a.blob.core.windows.net/c/f?sv=2020-08-04&sig=*&se=x
      ?X-Amz-Credential=AKIA/2024&X-Amz-Signature=CANARY               | ?X-Amz-Credential=*&X-Amz-Signature=*
      # sysbench, pgbench and psql styles
      /usr/bin/sysbench --db-driver=pgsql --pgsql-user=u --pgsql-password=CANARY --pgsql-host=127.0.0.1 run | /usr/bin/sysbench --db-driver=pgsql --pgsql-user=u --pgsql-password=* --pgsql-host=127.0.0.1 run
      sysbench --mysql-password CANARY --mysql-host h                  | sysbench --mysql-password * --mysql-host h
      PGPASSWORD=CANARY pgbench -h localhost -c 8                      | PGPASSWORD=* pgbench -h localhost -c 8
      `export PGPASSWORD='CANARY two'; pgbench`                        | `export PGPASSWORD='*'; pgbench`
      password = CANARY                                                | password = *
      Unknown options: '--pgsql-password', 'CANARY'                    | Unknown options: '--pgsql-password', *
      # settings whose name names a secret (Spark's rule misses the Azure and Google ones)
      --conf spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net=CANARY | --conf spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net=*
      --conf spark.hadoop.fs.azure.sas.cont.acct.blob.core.windows.net=CANARY    | --conf spark.hadoop.fs.azure.sas.cont.acct.blob.core.windows.net=*
      -Dfs.gs.auth.service.account.private.key=CANARY                  | -Dfs.gs.auth.service.account.private.key=*
      -Dfs.azure.account.oauth2.client.secret=CANARY                   | -Dfs.azure.account.oauth2.client.secret=*
      fs.s3a.secret.key=CANARY fs.s3a.access.key=AKIA fs.s3a.session.token=T | fs.s3a.secret.key=* fs.s3a.access.key=* fs.s3a.session.token=*
      AWS_SECRET_ACCESS_KEY=CANARY accessKeyId=AKIA apiKey=CANARY      | AWS_SECRET_ACCESS_KEY=* accessKeyId=* apiKey=*
      spark.authenticate.secret=CANARY spark.ssl.keyPassword=CANARY    | spark.authenticate.secret=* spark.ssl.keyPassword=*
      {user=u, password=CANARY}                                        | {user=u, password=*
      """)
  void secretsAreReplacedAndTheirNamesKept(String input, String expected) {
    assertThat(Redaction.scrub(input)).isEqualTo(expected.replace("*", X));
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "step=primary-key-lookup", "--step primary-key-lookup", "--where step=primary-key-lookup os=linux",
      "monkey=1 keyspace=ks keyboard=us turkey=2", "--conf spark.sql.shuffle.partitions=4",
      "wasbs://container@acct.blob.core.windows.net/path", "postgresql://user@host:5432/db",
      "jdbc:postgresql://localhost:5432/db?sslmode=require&ApplicationName=x", "hdfs://nn:8020/bench/wh",
      "PGPASSFILE=/home/u/.pgpass", "    transactions:                        53639  (53556.91 per sec.)",
      "pgbench (16.2)", "latency average = 0.312 ms", "--threads 8 --time=10 - a - b --", "tps = 3088.6 (without initial connection time)",
      "x.pg1615_embedded.default.pk1/sb.o.point-query.range100.pk1.dop1", "password authentication failed for user \"u\"",
      "a=b=c", "=", "password=", "selector 'os': 'os' is not key=value (e.g. os=linux)", "--label KEY=VALUE", "--password", "--password --verbose", "Unknown option: '--pgsql-password' (nothing was run)",
      ""})
  void ordinaryTextIsLeftAlone(String text) {
    assertThat(Redaction.scrub(text)).isEqualTo(text);
    assertThat(Redaction.args(List.of(text))).containsExactly(text);
  }

  @Test
  void aCommandLineKeepsEveryWordButTheSecretValues() {
    assertThat(Redaction.args(List.of("ingest", "--warehouse", "s3a://b/wh", "--conf",
        "spark.hadoop.fs.azure.account.key.a.blob.core.windows.net=with blank", "--conf=spark.hadoop.fs.s3a.secret.key=S",
        "--conf", "spark.sql.shuffle.partitions=4", "--pgsql-password", "CANARY", "--jdbc-url",
        "jdbc:postgresql://h/db?password=CANARY&ssl=true", "--step", "primary-key-lookup", "--password", "--verbose")))
        .containsExactly("ingest", "--warehouse", "s3a://b/wh", "--conf",
            "spark.hadoop.fs.azure.account.key.a.blob.core.windows.net=" + X, "--conf=spark.hadoop.fs.s3a.secret.key=" + X,
            "--conf", "spark.sql.shuffle.partitions=4", "--pgsql-password", X, "--jdbc-url",
            "jdbc:postgresql://h/db?password=" + X + "&ssl=true", "--step", "primary-key-lookup", "--password", "--verbose");
    assertThat(Redaction.args(List.of("--conf"))).containsExactly("--conf");
  }

  @ParameterizedTest
  @CsvSource({"password,true", "PGPASSWORD,true", "pgsql-password,true", "mysql-password,true", "passwd,true",
      "pwd,true", "client.secret,true", "fs.s3a.session.token,true", "credentials,true", "X-Amz-Signature,true",
      "fs.azure.account.key.a.blob.core.windows.net,true", "fs.gs.auth.service.account.private.key,true",
      "fs.s3a.access.key,true", "accessKeyId,true", "AWS_ACCESS_KEY_ID,true", "fs.azure.sas.c.a,true", "sig,true",
      "apikey,true", "key,false", "KEYS,false", "step,false", "primary-key-lookup-time,true", "monkey,false", "keyspace,false", "os,false",
      "PGPASSFILE,false", "db_version,false", "sysbench_version,false", "option.threads,false", "user,false"})
  void aNameNamesASecretByItsWords(String name, boolean secret) {
    assertThat(Redaction.namesSecret(name)).isEqualTo(secret);
    // Spark's form of the rule agrees (a bare key is no Spark setting's name).
    if (!name.equalsIgnoreCase("key") && !name.equalsIgnoreCase("keys")) {
      assertThat(java.util.regex.Pattern.compile(Redaction.sparkRegex()).matcher(name).find()).as(name).isEqualTo(secret);
    }
  }

  @Test
  void aFactNamedAsASecretLosesItsValue() {
    assertThat(Redaction.value("option.pgsql-password", "pw")).isEqualTo(X);
    assertThat(Redaction.value("option.threads", "8")).isEqualTo("8");
    assertThat(Redaction.value("command", "sysbench --pgsql-password=pw")).isEqualTo("sysbench --pgsql-password=" + X);
    assertThat(Redaction.value("password", "")).isEmpty();
  }

  @Test
  void credentialsInALocationAreInItsAuthorityOrParametersNotItsPath() {
    assertThat(Redaction.carriesCredentials("s3a://AKIA:S@bucket/wh")).isTrue();
    assertThat(Redaction.carriesCredentials("jdbc:postgresql://h/db?password=x")).isTrue();
    assertThat(Redaction.carriesCredentials("jdbc:postgresql://h/db;password=x")).isTrue();
    assertThat(Redaction.carriesCredentials("s3a://bucket/data/key=2024/token=a/x")).isFalse();
    assertThat(Redaction.carriesCredentials("jdbc:postgresql://u@h:5432/db?sslmode=require")).isFalse();
    assertThat(Redaction.carriesCredentials(null)).isFalse();
  }

  @Test
  void hostileLinesOfTwoMegabytesAreScrubbedInLinearTime() {
    int size = 2 << 20; // a quadratic pass would take hours here
    for (String unit : List.of("a", "://", "://a:", "a=", "password=a&", "--password ", "-", "'", "@:", "x ")) {
      String line = unit.repeat(size / unit.length());
      long started = System.nanoTime();
      Redaction.scrub(line);
      assertThat(Duration.ofNanos(System.nanoTime() - started)).as(unit).isLessThan(Duration.ofSeconds(2));
    }
  }
}
