package dev.benchlake.core.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SecretArgsTest {
  @Test
  void credentialsGivenAsConfAreReplacedAndEverythingElseIsKept() {
    assertThat(SecretArgs.redacted(List.of("--warehouse", "s3a://b/wh", "--conf", "spark.hadoop.fs.s3a.secret.key=S3CR3T",
        "--conf=spark.hadoop.fs.s3a.access.key=AKIA1", "--conf", "spark.hadoop.fs.s3a.session.token=T0K",
        "--conf", "spark.sql.shuffle.partitions=4", "--baseline", "password=x")))
        .containsExactly("--warehouse", "s3a://b/wh", "--conf", "spark.hadoop.fs.s3a.secret.key=" + SecretArgs.REDACTED,
            "--conf=spark.hadoop.fs.s3a.access.key=" + SecretArgs.REDACTED,
            "--conf", "spark.hadoop.fs.s3a.session.token=" + SecretArgs.REDACTED,
            "--conf", "spark.sql.shuffle.partitions=4", "--baseline", "password=x");
    assertThat(SecretArgs.redacted(List.of("--conf"))).containsExactly("--conf");
  }
}
