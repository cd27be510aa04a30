package dev.benchlake.core.redaction;

import static dev.benchlake.core.redaction.Redaction.MARKER;
import static org.assertj.core.api.Assertions.assertThat;

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
      # a URL's password as libpq and pgjdbc read it: up to the last '@' of its word ('#', '?', '/' in it as typed)
      pgbench 'postgresql://u:pw#rest?x/y@host/db'                      | pgbench 'postgresql://u:*@host/db'
      WARNING: JDBC URL must contain a / at the end of the host or port: jdbc:postgresql://u:LG#pw@h:5432/db | WARNING: JDBC URL must contain a / at the end of the host or port: jdbc:postgresql://u:*@h:5432/db
      jdbc:postgresql://u:a@b@h/db and more                             | jdbc:postgresql://u:*@h/db and more
      `pgbench 'postgresql://u:two words@h/db' -c 2`                   | `pgbench 'postgresql://u:*@h/db' -c 2`
      s3a://AKIA:SEC/RET@bucket/x                                       | s3a://AKIA:*@bucket/x
      jdbc:postgresql://h/db?password=a;b#c/d&ssl=true                  | jdbc:postgresql://h/db?password=*&ssl=true
      jdbc:sqlserver://h;user=u;password={a;b}}c};databaseName=x        | jdbc:sqlserver://h;user=u;password={*};databaseName=x
      # values holding ';', blanks and quotes, read as their consumers read them
      PGPASSWORD=a;CANARY pgbench -c 8                                  | PGPASSWORD=* pgbench -c 8
      PGPASSWORD=two words                                              | PGPASSWORD=*
      PGPASSWORD=two words PGHOST=h                                     | PGPASSWORD=* PGHOST=h
      `sysbench --mysql-password 'two words' --mysql-host h`            | `sysbench --mysql-password * --mysql-host h`
      sysbench --mysql-password two words --mysql-host h                | sysbench --mysql-password * --mysql-host h
      sysbench --pgsql-password=two words --pgsql-host=h run            | sysbench --pgsql-password=* --pgsql-host=h run
      `PGPASSWORD="a \\"b\\" c" psql`                                   | `PGPASSWORD="*" psql`
      `PGPASSWORD='it'\\''s' pgbench`                                     | `PGPASSWORD='*' pgbench`
      `host=h password='it\\'s two' dbname=x`                             | `host=h password='*' dbname=x`
      # JSON (plain, escaped, Python's quotes) and PEM blocks (JSON-escaped, or on one line)
      `{"user": "u", "password": "a\\" b"}`                               | `{"user": "u", "password": "*"}`
      `{"config": "{\\"password\\": \\"a b\\"}"}`                           | `{"config": "{\\"password\\": \\"*\\"}"}`
      `{'password': 'a b'}`                                             | `{'password': '*'}`
      `--conf k.private.key=-----BEGIN PRIVATE KEY-----\\nMII CANARY\\n-----END PRIVATE KEY-----\\n --conf x=y` | `--conf k.private.key=* --conf x=y`
      -----BEGIN RSA PRIVATE KEY----- MII CANARY -----END RSA PRIVATE KEY----- | -----BEGIN RSA PRIVATE KEY-----*-----END RSA PRIVATE KEY-----
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
      "https://h:8443/status?x=y", "mail a@b.example for access", "ssh://git@github.com:22/x.git",
      "can't connect to postgresql://h:5432/db: it's down", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIU\n-----END CERTIFICATE-----",
      "-----BEGIN PUBLIC KEY-----", "{\"step\": \"primary-key-lookup\", \"key\": \"os\"}", "PGHOST=db.example pgbench -c 8",
      "export PGUSER='bench'; pgbench", "jdbc:sqlserver://h;databaseName=x;encrypt=true", "\"quoted\": 'it''s'",
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

  /**
   * Linear, not quadratic, as a ratio of two sizes measured side by side rather than against a
   * clock: a line 16 times longer takes about 16 times as long in a linear pass and 256 times in a
   * quadratic one, whatever the machine's load (an absolute bound failed at load 17). Each size's
   * best of three, so that one pre-empted run does not decide.
   */
  @Test
  void hostileLinesOfTwoMegabytesAreScrubbedInLinearTime() {
    int large = 2 << 20;
    int small = large / 16;
    for (String unit : List.of("a", "://", "://a:", "a=", "password=a&", "--password ", "-", "'", "@:", "x ", "\"", "\\",
        "x://a:b@", "password='", "password=\"", "PGPASSWORD=a ", "--password a ", "--password=a ", ";password={", "?password=a ",
        "\"password\": \"", "\\\"password\\\":\\\"", "'password': '", "-----BEGIN PRIVATE KEY-----", "-----BEGIN ",
        "-----END", "a 'b", "'a\\'", "x://a?b=c;", "x://a;password={")) {
      String smallLine = unit.repeat(small / unit.length());
      String largeLine = unit.repeat(large / unit.length());
      Redaction.scrub(smallLine); // compiled before either is timed
      double ratio = (double) bestOfThree(largeLine) / Math.max(1, bestOfThree(smallLine));
      assertThat(ratio).as("%s: 16 times the length took %.1f times as long (linear 16, quadratic 256)", unit, ratio)
          .isLessThan(64);
    }
  }

  private static long bestOfThree(String line) {
    long best = Long.MAX_VALUE;
    for (int i = 0; i < 3; i++) {
      long started = System.nanoTime();
      Redaction.scrub(line);
      best = Math.min(best, System.nanoTime() - started);
    }
    return best;
  }
}
