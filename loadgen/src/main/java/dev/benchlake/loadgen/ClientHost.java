package dev.benchlake.loadgen;

import dev.benchlake.core.raw.RunManifest;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** The machine running loadgen, for the manifest. */
final class ClientHost {
  private ClientHost() {}

  static RunManifest.Client describe() {
    return new RunManifest.Client(hostName(), System.getProperty("os.name"), System.getProperty("os.version"),
        System.getProperty("os.arch"), Runtime.getRuntime().availableProcessors(), memoryBytes(),
        System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
  }

  private static String hostName() {
    String env = System.getenv("HOSTNAME");
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (IOException e) {
      return env == null ? "unknown" : env;
    }
  }

  /** Physical memory from /proc/meminfo (Linux); null elsewhere. */
  private static Long memoryBytes() {
    Path meminfo = Path.of("/proc/meminfo");
    try {
      for (String line : Files.readAllLines(meminfo, StandardCharsets.UTF_8)) {
        if (line.startsWith("MemTotal:")) {
          return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return null;
    }
    return null;
  }
}
