package dev.benchlake.ingest;

import dev.benchlake.core.Sha256;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A dynamic class-data-sharing archive (JDK 17 AppCDS) for the child JVMs of these tests: every
 * child is a fresh JVM that loads Spark's and Delta's ~20,000 classes to run one short ingest, and
 * mapping them already parsed and verified from an archive saves about 40 % of its CPU (measured,
 * one child ingest of 5,000 lines, six pairs: 13.5-16.3 CPU-s -> 7.4-9.7 CPU-s). Making the archive
 * costs about two children's CPU once (the training ingest and its dump at exit, ~28 CPU-s), so it
 * pays from the fifth child on; ingest-faults starts thirteen.
 *
 * <p>The archive is written once, under {@code target/child-jvm/}, by one training child that
 * ingests a small pgbench log to its normal end (a killed JVM writes no archive), and used by every
 * later child; the kill test classes start it on a thread at class load ({@link #makeInBackground}),
 * so that the test JVM's Spark start and in-process ingests go on meanwhile. Its file name is a
 * hash of what the JVM checks an archive against (the JDK, the flags, each class-path jar's path,
 * size and time), so a test JVM never picks up another build's
 * archive and two writers of one name have the same inputs; each writes to a file of its own and
 * moves it into place. Whatever goes wrong (no archive made, or one the JVM finds does not match),
 * the children run as before, only slower: {@code -Xshare:auto} makes the JVM ignore an archive it
 * cannot use. {@code -Dbenchlake.child.cds=false} turns it off (to measure what it gives).
 */
final class ChildJvmArchive {
  private static final String LOG_ERRORS_ONLY = "-Xlog:cds=error,cds+dynamic=error";
  private static List<String> flags;
  private static boolean started;

  private ChildJvmArchive() {}

  /**
   * Starts making the archive on a thread of its own, once per JVM: the test JVM's own Spark start
   * and in-process ingests go on meanwhile, and the first child waits in {@link #flags} for it.
   */
  static synchronized void makeInBackground() {
    if (!started) {
      started = true;
      Thread thread = new Thread(ChildJvmArchive::flags, "child-jvm-archive");
      thread.setDaemon(true);
      thread.start();
    }
  }

  /** The flags that make a child JVM use the archive; the archive is made on the first call. */
  static synchronized List<String> flags() {
    if (flags == null) {
      flags = List.of();
      if (!"false".equals(System.getProperty("benchlake.child.cds"))) {
        Path archive = ChildJvm.workDir().resolve("child-" + key() + ".jsa");
        if (!usable(archive)) {
          train(archive);
        }
        if (usable(archive)) {
          flags = List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:auto", LOG_ERRORS_ONLY);
        }
      }
    }
    return flags;
  }

  /**
   * Whether a child JVM maps the archive: {@code -Xshare:on} makes the JVM refuse to start when it
   * cannot (where the children's {@code -Xshare:auto} silently goes without). Half a second.
   */
  private static boolean usable(Path archive) {
    if (!Files.isRegularFile(archive)) {
      return false;
    }
    try {
      List<String> command = ChildJvm.command(List.of("-XX:SharedArchiveFile=" + archive, "-Xshare:on", LOG_ERRORS_ONLY),
          IngestMain.class);
      command.set(command.size() - 1, "-version"); // instead of the main class: the check is at start-up
      Process java = new ProcessBuilder(command).redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (java.waitFor(60, TimeUnit.SECONDS) && java.exitValue() == 0) {
        return true;
      }
      java.destroyForcibly();
      System.err.println("the child JVMs' class-data-sharing archive " + archive + " does not fit them (-Xshare:on refused it): removed");
      Files.deleteIfExists(archive);
      return false;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  /** What the JVM checks an archive against: the JDK, the flags, and each jar's path, size and time. */
  private static String key() {
    StringBuilder key = new StringBuilder(System.getProperty("java.home")).append('\n')
        .append(System.getProperty("java.vm.version")).append('\n')
        .append(String.join(" ", ChildJvm.baseFlags())).append('\n');
    for (String entry : ChildJvm.classPath()) {
      Path path = Path.of(entry);
      key.append(entry);
      try {
        key.append(' ').append(Files.size(path)).append(' ').append(Files.getLastModifiedTime(path).toMillis());
      } catch (IOException e) {
        key.append(" absent"); // a missing entry is matched as missing
      }
      key.append('\n');
    }
    return Sha256.hex(key.toString()).substring(0, 16);
  }

  /** One child ingest to its end, dumping the classes it loaded at exit. Failures only cost speed. */
  private static void train(Path archive) {
    Path dir = ChildJvm.workDir();
    Path work = null;
    try {
      Files.createDirectories(dir);
      work = Files.createTempDirectory(dir, "training-");
      Path log = work.resolve("pgbench_log.1");
      StringBuilder text = new StringBuilder();
      for (int i = 0; i < 2_000; i++) {
        // One reject, so that every table's write is trained (rejects, ingest_files, tasks, runs).
        text.append(i == 1_000 ? "client 1 aborted" : (i % 4) + " " + i / 4 + " " + (300 + i % 97) + " 0 "
            + (1_700_000_000 + i / 500) + " " + i * 199).append('\n');
      }
      Files.writeString(log, text, StandardCharsets.UTF_8);
      Path partial = work.resolve("archive.jsa");
      Path output = work.resolve("training.out");
      long startNs = System.nanoTime();
      Process child = new ProcessBuilder(ChildJvm.command(
          List.of("-XX:ArchiveClassesAtExit=" + partial, LOG_ERRORS_ONLY), IngestMain.class,
          "--warehouse", work.resolve("warehouse").toString(), "--format", "pgbench-log", "--master", "local[2]",
          log.toString()))
          .redirectErrorStream(true).redirectOutput(output.toFile()).start();
      // Made in the background: a test JVM that ends first must not leave it running.
      Thread reaper = new Thread(child::destroyForcibly);
      Runtime.getRuntime().addShutdownHook(reaper);
      if (!child.waitFor(300, TimeUnit.SECONDS)) {
        child.destroyForcibly();
        child.waitFor(60, TimeUnit.SECONDS);
      }
      try {
        Runtime.getRuntime().removeShutdownHook(reaper);
      } catch (IllegalStateException e) {
        return; // the JVM is ending: the reaper killed the child
      }
      if (child.exitValue() == 0 && Files.isRegularFile(partial) && Files.size(partial) > 0) {
        Files.move(partial, archive, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        System.out.printf(java.util.Locale.ROOT, "child JVM class-data-sharing archive %s: %d MB, %d ms to make%n", archive,
            Files.size(archive) >> 20, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs));
        removeOtherArchives(dir, archive);
      } else {
        System.err.println("no class-data-sharing archive for the child JVMs (they run without, slower): exit "
            + child.exitValue() + ", " + Files.readString(output, StandardCharsets.UTF_8));
      }
    } catch (IOException e) {
      System.err.println("no class-data-sharing archive for the child JVMs (they run without, slower): " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      if (work != null) {
        deleteTree(work);
      }
    }
  }

  /** Archives of earlier builds (about 160 MB each). One another test JVM still maps stays readable to it. */
  private static void removeOtherArchives(Path dir, Path keep) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jsa") && !f.equals(keep)).toList()) {
        Files.deleteIfExists(file);
      }
    }
  }

  private static void deleteTree(Path root) {
    try (Stream<Path> walk = Files.walk(root)) {
      List<Path> paths = new ArrayList<>(walk.sorted(Comparator.reverseOrder()).toList());
      for (Path path : paths) {
        Files.deleteIfExists(path);
      }
    } catch (IOException e) {
      System.err.println("cannot remove " + root + ": " + e);
    }
  }
}
