package dev.benchlake.app.hdfs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("integration")
class HdfsRoundTripIT {
  @TempDir
  static Path tmp;

  @Test
  void spike() throws Exception {
    Configuration conf = new Configuration();
    conf.set(MiniDFSCluster.HDFS_MINIDFS_BASEDIR, tmp.resolve("dfs").toString());
    long t0 = System.nanoTime();
    MiniDFSCluster cluster = new MiniDFSCluster.Builder(conf).numDataNodes(1).build();
    try {
      cluster.waitActive();
      System.err.println("started in " + (System.nanoTime() - t0) / 1e9 + " s at " + cluster.getURI());
      FileSystem fs = cluster.getFileSystem();
      try (var out = fs.create(new org.apache.hadoop.fs.Path("/x.txt"))) {
        out.write("hello\n".getBytes());
      }
      assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path("/x.txt")).getLen()).isEqualTo(6);
    } finally {
      cluster.shutdown();
    }
  }
}
