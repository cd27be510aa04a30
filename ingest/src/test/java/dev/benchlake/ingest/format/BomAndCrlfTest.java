package dev.benchlake.ingest.format;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.ingest.IngestRequest;
import dev.benchlake.ingest.format.HostileInputProperties.Source;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A UTF-8 byte-order mark, CRLF line ends, or both, on an otherwise valid file are what a Windows
 * editor or harness writes (the 2016 study's C# harness among them), not bad lines: for every
 * format's real output ({@link HostileInputProperties#validSources()}), every result file of the
 * source so written parses to zero rejects and to exactly the rows of the original. (The hostile
 * properties only check that such files are accounted for.) A CSV mapping is configuration, not
 * output, and is left as it is.
 */
class BomAndCrlfTest {
  @TempDir
  Path dir;

  enum Windows {
    BOM(b -> concat(new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, b)),
    CRLF(BomAndCrlfTest::crlf),
    BOM_AND_CRLF(b -> BOM.apply(crlf(b)));

    private final UnaryOperator<byte[]> mutation;

    Windows(UnaryOperator<byte[]> mutation) {
      this.mutation = mutation;
    }

    byte[] apply(byte[] in) {
      return mutation.apply(in);
    }
  }

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (Source source : HostileInputProperties.validSources().stream().map(BomAndCrlfTest::complete).toList()) {
      if (source.files().containsKey(source.target()) && !source.target().equals(source.mapping())) {
        for (Windows w : Windows.values()) {
          out.add(Arguments.of(source, w));
        }
      }
    }
    return out.stream().distinct();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("cases")
  void aWindowsWrittenValidFileHasNoRejects(Source source, Windows windows) throws IOException {
    List<EngineParse.FileVerdicts> original = parse(source, dir.resolve("original"), null);
    List<EngineParse.FileVerdicts> mutated = parse(source, dir.resolve("windows"), windows);
    assertThat(original.stream().mapToLong(EngineParse.FileVerdicts::rejectLines).sum())
        .as("the original has no rejects (else the test proves nothing)").isZero();
    assertThat(mutated).hasSameSizeAs(original);
    for (int f = 0; f < original.size(); f++) {
      EngineParse.FileVerdicts o = original.get(f);
      EngineParse.FileVerdicts m = mutated.get(f);
      String what = m.path().getFileName() + " with " + windows;
      assertThat(m.rejects()).as("rejects of " + what).isEmpty();
      assertThat(List.of(m.lines(), m.taskLines(), m.metricLines(), m.metadataLines()))
          .as("verdicts of " + what).isEqualTo(List.of(o.lines(), o.taskLines(), o.metricLines(), o.metadataLines()));
      assertThat(m.tasks()).as("tasks of " + what).isEqualTo(o.tasks());
      assertThat(m.metrics()).as("metrics of " + what).isEqualTo(o.metrics());
    }
  }

  /** Writes the source (its result files mutated), plans it with its format and parses it in small chunks. */
  private static List<EngineParse.FileVerdicts> parse(Source source, Path root, Windows windows) throws IOException {
    List<Path> inputs = new ArrayList<>();
    for (Map.Entry<String, byte[]> file : source.files().entrySet()) {
      boolean result = !file.getKey().equals(source.mapping());
      byte[] content = windows != null && result ? windows.apply(file.getValue()) : file.getValue();
      Path path = root.resolve(file.getKey());
      Files.createDirectories(path.getParent());
      Files.write(path, content);
      if (!source.directory() && result && !file.getKey().startsWith("summary.")) {
        inputs.add(path);
      }
    }
    if (source.directory()) {
      inputs.add(root.resolve(source.target().substring(0, source.target().indexOf('/'))));
    }
    IngestRequest request = IngestRequest.of(inputs.toArray(Path[]::new)).withFormat(source.format());
    if (source.mapping() != null) {
      request = request.withMapping(root.resolve(source.mapping()));
    }
    List<EngineParse.FileVerdicts> out = new ArrayList<>();
    for (SourcePlan plan : Formats.named(source.format()).plan(LocalPaths.of(inputs), request.planContext())) {
      // Chunks of 97 bytes: the BOM and the CR must not matter at any chunk boundary either.
      out.addAll(EngineParse.parse(plan, 97));
    }
    return out;
  }

  /** The loadgen run of the hostile properties is a killed one, with a cut last line: without it, it is valid. */
  private static Source complete(Source source) {
    if (!source.format().equals("loadgen")) {
      return source;
    }
    Map<String, byte[]> files = new java.util.TreeMap<>(source.files());
    byte[] tasks = files.get("run/tasks.csv");
    int end = tasks.length;
    while (end > 0 && tasks[end - 1] != '\n') {
      end--;
    }
    files.put("run/tasks.csv", java.util.Arrays.copyOf(tasks, end));
    return new Source(source.format(), files, source.target(), source.directory(), source.mapping());
  }

  /** Every LF not already preceded by CR becomes CRLF. */
  static byte[] crlf(byte[] in) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(in.length + in.length / 16);
    for (int i = 0; i < in.length; i++) {
      if (in[i] == '\n' && (i == 0 || in[i - 1] != '\r')) {
        out.write('\r');
      }
      out.write(in[i]);
    }
    return out.toByteArray();
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
