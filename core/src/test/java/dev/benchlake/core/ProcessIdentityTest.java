package dev.benchlake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A process known by its pid and its start, so that a recycled pid is not taken for a process gone. */
class ProcessIdentityTest {
  @Test
  void theStartTimeIsTheTwentySecondFieldCountedFromTheLastParenthesis() {
    // A command name may hold blanks and parentheses: "(java) (x)".
    String stat = "4242 ((java) (x)) S 1 4242 4242 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 12 0 987654 0 0";
    assertThat(ProcessIdentity.parse(4242, stat)).hasValue(new ProcessIdentity(4242, 987654));
    assertThat(ProcessIdentity.parse(4242, stat.replace(")) S ", ")) Z "))).as("a zombie runs no more").isEmpty();
    assertThat(ProcessIdentity.parse("4242:987654")).isEqualTo(new ProcessIdentity(4242, 987654));
    assertThat(new ProcessIdentity(4242, 987654).toString()).isEqualTo("4242:987654");
  }

  @Test
  void aPidGivenToAnotherProcessIsNotTheProcessThatHadIt() throws Exception {
    assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc");
    ProcessIdentity self = ProcessIdentity.current();
    assertThat(self.alive()).isTrue();
    assertThat(new ProcessIdentity(self.pid(), self.startTicks() - 1).alive())
        .as("the same pid, started at another time: another process").isFalse();

    Process child = new ProcessBuilder("true").start();
    long pid = child.pid();
    assertThat(child.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(new ProcessIdentity(pid, 0).alive()).as("an exited process").isFalse();
  }
}
