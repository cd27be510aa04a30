package dev.benchlake.warehouse.fs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileContext;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fork-free local file system gives what Hadoop's gives: the permissions asked for, a symbolic
 * link's status as a link, and, through FileContext as Delta's log store uses it, a rename that
 * refuses to replace an existing commit file.
 */
class ForklessLocalFileSystemTest {
  @TempDir
  java.nio.file.Path tmp;

  private static Configuration conf() {
    Configuration conf = new Configuration();
    conf.set("fs.file.impl", ForklessLocalFileSystem.class.getName());
    conf.set("fs.AbstractFileSystem.file.impl", ForklessLocalFs.class.getName());
    conf.setBoolean("fs.file.impl.disable.cache", true);
    return conf;
  }

  private Path path(String name) {
    return new Path(tmp.resolve(name).toUri());
  }

  private String mode(String name) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve(name)));
  }

  @Test
  void filesAndFoldersGetThePermissionAskedFor() throws Exception {
    try (FileSystem fs = FileSystem.get(tmp.toUri(), conf())) {
      assertThat(fs).isInstanceOf(ForklessLocalFileSystem.class);
      assertThat(fs.mkdirs(path("a/b"), new FsPermission((short) 0750))).isTrue();
      try (FSDataOutputStream out = fs.create(path("a/b/f"), new FsPermission((short) 0640), false, 4096, (short) 1,
          1 << 20, null)) {
        out.write(1);
      }
      fs.setPermission(path("a/b/f"), new FsPermission((short) 0604));
      assertThat(mode("a/b")).isEqualTo("rwxr-x---");
      assertThat(mode("a/b/f")).isEqualTo("rw----r--");
      assertThat(fs.getFileStatus(path("a/b/f")).getPermission().toShort()).isEqualTo((short) 0604);
      // A sticky bit is Hadoop's own chmod's to set.
      fs.setPermission(path("a/b"), new FsPermission((short) 01755));
      assertThat(fs.getFileStatus(path("a/b")).getPermission().getStickyBit()).isTrue();
      assertThatThrownBy(() -> fs.setPermission(path("none"), new FsPermission((short) 0644)))
          .isInstanceOf(java.io.IOException.class);
    }
  }

  /** A file, a folder, a symbolic link and a missing file: the link status Hadoop's own gives, through both APIs. */
  @Test
  void linkStatusIsHadoopsOwn() throws Exception {
    Files.writeString(tmp.resolve("target"), "abc", StandardCharsets.UTF_8);
    Files.createDirectories(tmp.resolve("dir"));
    Files.createSymbolicLink(tmp.resolve("link"), tmp.resolve("target"));
    Configuration stock = new Configuration();
    stock.setBoolean("fs.file.impl.disable.cache", true);
    try (FileSystem ours = FileSystem.get(tmp.toUri(), conf()); FileSystem hadoops = FileSystem.get(tmp.toUri(), stock)) {
      assertThat(hadoops).isNotInstanceOf(ForklessLocalFileSystem.class);
      FileContext ourFc = FileContext.getFileContext(tmp.toUri(), conf());
      FileContext hadoopsFc = FileContext.getFileContext(tmp.toUri(), stock);
      for (String name : new String[] {"target", "dir", "link"}) {
        assertThat(describe(ours.getFileLinkStatus(path(name)))).as(name).isEqualTo(describe(hadoops.getFileLinkStatus(path(name))));
        assertThat(describe(ourFc.getFileLinkStatus(path(name)))).as(name)
            .isEqualTo(describe(hadoopsFc.getFileLinkStatus(path(name))));
      }
      assertThat(ourFc.getFileLinkStatus(path("target")).getLen()).isEqualTo(3);
      assertThatThrownBy(() -> ours.getFileLinkStatus(path("none"))).isInstanceOf(FileNotFoundException.class);
      assertThatThrownBy(() -> ourFc.getFileLinkStatus(path("none"))).isInstanceOf(FileNotFoundException.class);
    }
  }

  private static String describe(FileStatus s) throws java.io.IOException {
    return s.getPath() + " dir=" + s.isDirectory() + " len=" + s.getLen() + " link="
        + (s.isSymlink() ? s.getSymlink() : "none") + " mode=" + s.getPermission();
  }

  /** What Delta's HDFSLogStore does on file: a temporary file, then a rename that must not replace. */
  @Test
  void fileContextRenamesIntoPlaceButNeverOverAnExistingFile() throws Exception {
    FileContext fc = FileContext.getFileContext(tmp.toUri(), conf());
    assertThat(fc.getDefaultFileSystem()).isInstanceOf(ForklessLocalFs.class);
    for (String name : new String[] {"0.tmp", "1.tmp"}) {
      try (FSDataOutputStream out = fc.create(path(name), EnumSet.of(CreateFlag.CREATE),
          Options.CreateOpts.checksumParam(Options.ChecksumOpt.createDisabled()))) {
        out.write(name.getBytes(StandardCharsets.UTF_8));
      }
    }
    fc.rename(path("0.tmp"), path("0.json"), Options.Rename.NONE);
    assertThat(Files.readString(tmp.resolve("0.json"))).isEqualTo("0.tmp");
    assertThatThrownBy(() -> fc.rename(path("1.tmp"), path("0.json"), Options.Rename.NONE))
        .isInstanceOf(FileAlreadyExistsException.class);
    assertThat(Files.readString(tmp.resolve("0.json"))).as("the first commit stays").isEqualTo("0.tmp");
    fc.rename(path("1.tmp"), path("0.json"), Options.Rename.OVERWRITE);
    assertThat(Files.readString(tmp.resolve("0.json"))).isEqualTo("1.tmp");
  }
}
