package dev.benchlake.warehouse.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.benchlake.core.cli.BadInputException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StorageTest {
  @TempDir
  Path tmp;

  private final Storage storage = Storage.on(new Configuration());

  @Test
  void aPathWithoutASchemeOrAFileUriIsThePlainAbsoluteLocalPath() {
    String cwd = Path.of("").toAbsolutePath().toString();
    assertThat(Storage.location("wh/../results/x.txt")).hasToString(cwd + "/results/x.txt");
    assertThat(Storage.location("/tmp/a b/../c")).hasToString("/tmp/c");
    assertThat(Storage.location("file:///tmp/a/../b")).hasToString("/tmp/b");
    assertThat(Storage.location("file:/tmp/b")).hasToString("/tmp/b");
    assertThat(Storage.location("hdfs://nn:8020/bench/results")).hasToString("hdfs://nn:8020/bench/results");
    assertThat(Storage.location("s3a://bucket/wh")).hasToString("s3a://bucket/wh");
  }

  @Test
  void aUriWithCredentialsIsRefusedWithoutRepeatingThem() {
    for (String given : new String[] {"s3a://AKIA:Sekr1tSekr1t@bucket/wh", "wasbs://u:Sekr1tSekr1t@c.blob.core.windows.net/r",
        "gs://b/results?sig=Sekr1tSekr1t", "s3a://AKIAIOSFODNN7EXAMPLE:Sekr1t/Sekr1t@bucket/wh",
        "s3a://AKIAIOSFODNN7EXAMPLE:Sekr1t#Sekr1t?x@bucket/wh", "s3a://AKIAIOSFODNN7EXAMPLE@bucket/wh?sig=Sekr1tSekr1t"}) {
      // The whole user info goes: an access key's id names the account it opens.
      assertThatThrownBy(() -> Storage.location(given)).as(given).isInstanceOf(BadInputException.class)
          .hasMessageContaining("must not carry credentials").message().doesNotContain("Sekr1t").doesNotContain("AKIA");
    }
    // A Hive-style folder named like a secret is a folder.
    assertThat(Storage.location("s3a://bucket/data/key=2024")).hasToString("s3a://bucket/data/key=2024");
  }

  @Test
  void qualifiedLocationsNeverDependOnTheDefaultFileSystem() throws IOException {
    assertThat(Storage.qualified(Storage.location("/tmp/wh"))).isEqualTo("file:/tmp/wh");
    assertThat(Storage.qualified(Storage.location("hdfs://nn:8020/wh"))).isEqualTo("hdfs://nn:8020/wh");
    Configuration onHdfs = new Configuration();
    onHdfs.set("fs.defaultFS", "hdfs://no-such-namenode.invalid:8020");
    assertThat(Storage.isLocal(Storage.location("/tmp/wh"))).isTrue();
    assertThat(Storage.on(onHdfs).exists(Storage.location(tmp.toString()))).isTrue();
  }

  @Test
  void aLocalFolderListsInNameOrderAsPlainPaths() throws IOException {
    Files.writeString(tmp.resolve("b.txt"), "bb\n");
    Files.writeString(tmp.resolve("a.txt"), "a\n");
    Files.createDirectory(tmp.resolve("c"));
    assertThat(storage.list(Storage.location(tmp.toString())).stream().map(FileStatus::getPath).map(Object::toString))
        .containsExactly(tmp + "/a.txt", tmp + "/b.txt", tmp + "/c");
    org.apache.hadoop.fs.Path b = Storage.location(tmp.resolve("b.txt").toString());
    assertThat(storage.size(b)).isEqualTo(3);
    assertThat(storage.head(b, 1)).containsExactly('b');
    assertThat(storage.readString(b)).isEqualTo("bb\n");
    assertThat(storage.isDirectory(Storage.location(tmp.resolve("c").toString()))).isTrue();
  }

  @Test
  void aMissingFileAndAnUnknownHostAreTheUsersToFix() throws IOException {
    org.apache.hadoop.fs.Path missing = Storage.location(tmp.resolve("nothing").toString());
    assertThat(storage.isFile(missing)).isFalse();
    assertThatThrownBy(() -> storage.size(missing)).isInstanceOf(BadInputException.class)
        .hasMessage(missing + ": no such file or directory");
    assertThatThrownBy(() -> storage.open(missing)).isInstanceOf(BadInputException.class)
        .hasMessage(missing + ": no such file or directory");
    assertThatThrownBy(() -> storage.exists(Storage.location("hdfs://no-such-host.invalid:8020/x")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("hdfs://no-such-host.invalid:8020/x: cannot reach the file system (unknown host");
  }
  /**
   * s3a:// without hadoop-aws (Hadoop's defaults name its class; here a name that is not there, as on
   * bin/benchlake's class path): bad input naming the artifact and how to add it, not a runtime failure
   * quoting a class ("Class org.apache.hadoop.fs.s3a.S3AFileSystem not found", exit 1).
   */
  @Test
  void aSchemeWhoseFileSystemIsNotOnTheClassPathSaysWhatToAdd() {
    Configuration conf = new Configuration();
    conf.set("fs.s3a.impl", "org.apache.hadoop.fs.s3a.NotOnThisClassPath");
    conf.setBoolean("fs.s3a.impl.disable.cache", true);
    Storage s3 = Storage.on(conf);
    assertThatThrownBy(() -> s3.status(new org.apache.hadoop.fs.Path("s3a://bucket/wh")))
        .isInstanceOf(BadInputException.class)
        .hasMessageStartingWith("s3a://bucket/wh: no file system for s3a:// on benchlake's class path")
        .hasMessageContaining("add org.apache.hadoop:hadoop-aws:" + org.apache.hadoop.util.VersionInfo.getVersion()
            + " and the AWS SDK v2")
        .hasMessageContaining("--packages")
        .hasMessageContaining("app/target/lib/");
    assertThatThrownBy(() -> Storage.on(new Configuration()).status(new org.apache.hadoop.fs.Path("nosuchfs://h/x")))
        .isInstanceOf(BadInputException.class).hasMessageContaining("no file system for nosuchfs://");
  }
}
