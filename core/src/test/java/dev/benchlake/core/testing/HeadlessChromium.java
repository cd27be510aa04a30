package dev.benchlake.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Renders a local HTML file in a real browser (Debian's headless Chromium) for tests: the DOM after
 * scripts ran, and a screenshot. bin/test installs Chromium; a test that needs it fails with a
 * clear message when it is missing rather than passing without having looked.
 */
public final class HeadlessChromium {
  private static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser",
      "/usr/bin/google-chrome");

  private HeadlessChromium() {}

  /** The DOM serialised after the page's scripts ran, and where the screenshot went. */
  public record Rendered(String dom, Path screenshot) {}

  /** Renders {@code html}, waiting up to {@code budget} of virtual time for scripts. */
  public static Rendered render(Path html, Path screenshot, int widthPx, int heightPx, Duration budget)
      throws IOException, InterruptedException {
    Path userDataDir = Files.createTempDirectory("benchlake-chromium-");
    String url = html.toAbsolutePath().toUri().toString();
    Files.createDirectories(screenshot.toAbsolutePath().getParent());
    // One browser for both: the DOM and the screenshot are of the same rendering, at the same size
    // (a Chromium start is about 2 CPU-s).
    String dom = run(userDataDir, budget, List.of("--dump-dom", "--screenshot=" + screenshot.toAbsolutePath(),
        "--window-size=" + widthPx + "," + heightPx, "--hide-scrollbars", url));
    if (!Files.isRegularFile(screenshot) || Files.size(screenshot) == 0) {
      throw new IOException("Chromium wrote no screenshot to " + screenshot);
    }
    return new Rendered(dom, screenshot);
  }

  private static String run(Path userDataDir, Duration budget, List<String> args)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(executable(),
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
        "--user-data-dir=" + userDataDir, "--virtual-time-budget=" + budget.toMillis()));
    command.addAll(args);
    Path out = Files.createTempFile("chromium-", ".out");
    Process p = new ProcessBuilder(command)
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    if (!p.waitFor(budget.toMillis() + 60_000, TimeUnit.MILLISECONDS)) {
      p.destroyForcibly();
      throw new IOException("Chromium did not finish: " + command);
    }
    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    Files.delete(out);
    if (p.exitValue() != 0) {
      throw new IOException("Chromium exited with " + p.exitValue() + ": " + command);
    }
    return stdout;
  }

  private static String executable() {
    String override = System.getenv("BENCHLAKE_CHROMIUM");
    if (override != null && !override.isBlank()) {
      return override;
    }
    for (String candidate : CANDIDATES) {
      if (Files.isExecutable(Path.of(candidate))) {
        return candidate;
      }
    }
    throw new IllegalStateException("no Chromium found (looked for " + CANDIDATES
        + "); install Debian's 'chromium' package (bin/test does) or set BENCHLAKE_CHROMIUM");
  }
}
