package dev.benchlake.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuListTest {
  @Test
  void readsAndWritesLinuxsSyntax() {
    assertThat(CpuList.parse("0-3,8").list()).containsExactly(0, 1, 2, 3, 8);
    assertThat(CpuList.parse(" 8,0-3 ").toString()).isEqualTo("0-3,8");
    assertThat(CpuList.parse("0,1").toString()).isEqualTo("0-1");
    assertThat(CpuList.parse("5").toString()).isEqualTo("5");
    assertThat(CpuList.parse("0-1,3-4,7").size()).isEqualTo(5);
    assertThat(CpuList.parse("0-1")).isEqualTo(CpuList.parse("1,0"));
  }

  @Test
  void refusesWhatIsNotACpuList() {
    for (String bad : List.of("", " ", "a", "3-1", "1-2-3", "-1", "0,,1", "99999999")) {
      assertThatThrownBy(() -> CpuList.parse(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void splitsIntoHalvesAndComparesSets() {
    List<CpuList> halves = CpuList.parse("0-3").split(2);
    assertThat(halves).extracting(CpuList::toString).containsExactly("0-1", "2-3");
    assertThat(halves.get(0).intersects(halves.get(1))).isFalse();
    assertThat(halves.get(0).within(CpuList.parse("0-3"))).isTrue();
    assertThat(CpuList.parse("3-4").within(CpuList.parse("0-3"))).isFalse();
    assertThat(CpuList.parse("0-2").split(1)).extracting(CpuList::toString).containsExactly("0", "1-2");
  }

  @Test
  void readsAProcessesAllowedCpusFromItsStatus(@TempDir Path dir) throws Exception {
    Path status = dir.resolve("status");
    Files.writeString(status, "Name:\tpostgres\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\nMems_allowed:\t1\n",
        StandardCharsets.UTF_8);
    assertThat(CpuList.allowedIn(status)).hasValue(CpuList.parse("0-1"));
    assertThat(CpuList.allowedIn(dir.resolve("missing"))).isEmpty();
    if (Files.isRegularFile(Path.of("/proc/self/status"))) {
      assertThat(CpuList.allowedForThisProcess()).get().extracting(CpuList::size, org.assertj.core.api.InstanceOfAssertFactories.INTEGER)
          .isGreaterThanOrEqualTo(Runtime.getRuntime().availableProcessors());
    }
  }
}
