package dev.benchlake.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * notebooks/run-all.sh on a machine without the notebook stack: one line that says what to install
 * and that nothing ran, exit 2, never "failing notebook(s)" (issue 26: it blamed cells that never
 * ran). Runs before the launcher is needed, so it is in the fast tier.
 */
class NotebooksRunAllTest {
  private static final Path SCRIPT = Path.of("../notebooks/run-all.sh");

  @TempDir
  Path tmp;

  @Test
  void withoutJupyterNothingRunsAndTheOneLineSaysWhatToInstall() throws Exception {
    Result r = run(tmp.resolve("no-such-jupyter").toString());
    assertThat(r.exit).isEqualTo(2);
    assertThat(r.stderr.strip()).doesNotContain("\n").contains("jupyter-nbconvert", "no notebook was run")
        .doesNotContain("failing");
    assertThat(r.stdout).isEmpty();
  }

  @Test
  void aJupyterWhosePythonLacksTheKernelOrPandasRunsNothing() throws Exception {
    // A jupyter that answers nbconvert --version but runs on an interpreter without ipykernel.
    Path jupyter = tmp.resolve("jupyter");
    Files.writeString(jupyter, "#!/bin/sh\necho 6.5.3\n");
    assertThat(jupyter.toFile().setExecutable(true)).isTrue();
    Result r = run(jupyter.toString());
    assertThat(r.exit).isEqualTo(2);
    assertThat(r.stderr.strip()).doesNotContain("\n").contains("ipykernel", "no notebook was run");
    assertThat(r.stdout).isEmpty();
  }

  private record Result(int exit, String stdout, String stderr) {}

  private Result run(String jupyter) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(List.of("bash", SCRIPT.toAbsolutePath().normalize().toString(),
        "--output-dir", tmp.resolve("out").toString()))
        .redirectOutput(tmp.resolve("stdout").toFile()).redirectError(tmp.resolve("stderr").toFile());
    builder.environment().put("BENCHLAKE_JUPYTER", jupyter);
    Process p = builder.start();
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Result(p.exitValue(), Files.readString(tmp.resolve("stdout"), StandardCharsets.UTF_8),
        Files.readString(tmp.resolve("stderr"), StandardCharsets.UTF_8));
  }
}
