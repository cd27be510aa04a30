package dev.benchlake.analysis.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** The command line a report names is the one the user typed: the command's name once. */
class ProvenanceArgsTest {
  @Command(name = "compare")
  static final class Sub implements Runnable {
    @Spec CommandSpec spec;
    @Option(names = "--by") String by;

    @Override
    public void run() {}
  }

  @Command(name = "benchlake", subcommands = Sub.class)
  static final class Root implements Runnable {
    @Override
    public void run() {}
  }

  @Test
  void underTheRootCommandTheCommandsNameIsNotRepeated() {
    CommandLine root = new CommandLine(new Root());
    root.parseArgs("compare", "--by", "compare");
    Sub sub = root.getSubcommands().get("compare").getCommand();
    assertThat(Provenance.argsOf(sub.spec)).containsExactly("--by", "compare");
    assertThat(Provenance.commandLine("compare", Provenance.argsOf(sub.spec))).isEqualTo("benchlake compare --by compare");
  }

  @Test
  void aCommandRunOnItsOwnKeepsEveryArgument() {
    Sub alone = new Sub();
    new CommandLine(alone).parseArgs("--by", "compare");
    assertThat(Provenance.argsOf(alone.spec)).isEqualTo(List.of("--by", "compare"));
  }

  @Test
  void theCommandLineKeepsNoCredentialOfAnyStore() {
    String line = Provenance.commandLine("compare", List.of("--warehouse", "s3a://b/wh",
        "--conf", "spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net=CANARY",
        "--conf", "spark.hadoop.fs.gs.auth.service.account.private.key=CANARY",
        "--conf=spark.hadoop.fs.s3a.secret.key=CANARY", "--conf", "spark.sql.shuffle.partitions=4",
        "--baseline", "step=primary-key-lookup"));
    assertThat(line).doesNotContain("CANARY")
        .contains("'spark.hadoop.fs.azure.account.key.acct.blob.core.windows.net=*********(redacted)'",
            "'spark.hadoop.fs.gs.auth.service.account.private.key=*********(redacted)'",
            "--conf spark.sql.shuffle.partitions=4", "--baseline step=primary-key-lookup");
  }
}
