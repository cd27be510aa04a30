package dev.benchlake.app.study.duet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.benchlake.core.CpuList;
import org.junit.jupiter.api.Test;

/**
 * The shares of device interrupts, from {@code /proc/interrupts} as this project's 2-vCPU VM printed
 * it on 2026-12-03 (every disk completion, {@code virtio1-req.0}, on CPU 1).
 */
class InterruptSharesTest {
  private static final String THIS_VM = """
                   CPU0       CPU1       
         24:          2          0  IO-APIC   5-edge      ACPI:Ged
         25:          0          2  IO-APIC   6-edge      ACPI:Ged
         26:          0          1  IO-APIC   4-edge      ttyS0
         28:          0          0 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config
         29:          0          2 PCI-MSIX-0000:00:01.0   1-edge      virtio0-inflate
         30:          2          0 PCI-MSIX-0000:00:01.0   2-edge      virtio0-deflate
         31:          0       3098 PCI-MSIX-0000:00:01.0   3-edge      virtio0-stats
         32:       1084          0 PCI-MSIX-0000:00:01.0   4-edge      virtio0-reporting_vq
         33:          0          0 PCI-MSIX-0000:00:05.0   0-edge      virtio4-config
         34:        266          0 PCI-MSIX-0000:00:05.0   1-edge      virtio4-input
         35:          0          1 PCI-MSIX-0000:00:02.0   0-edge      virtio1-config
         36:          0    4832526 PCI-MSIX-0000:00:02.0   1-edge      virtio1-req.0
         37:          0          0 PCI-MSIX-0000:00:03.0   0-edge      virtio2-config
         38:          0      17895 PCI-MSIX-0000:00:03.0   1-edge      virtio2-input.0
         39:      15583          0 PCI-MSIX-0000:00:03.0   2-edge      virtio2-output.0
         40:          0          0 PCI-MSIX-0000:00:04.0   0-edge      virtio3-config
         41:       4327          0 PCI-MSIX-0000:00:04.0   1-edge      virtio3-rx
         42:          0      24766 PCI-MSIX-0000:00:04.0   2-edge      virtio3-tx
         43:          4          0 PCI-MSIX-0000:00:04.0   3-edge      virtio3-event
        NMI:          0          0   Non-maskable interrupts
        LOC:    5099039    5069274   Local timer interrupts
        SPU:          0          0   Spurious interrupts
        PMI:          0          0   Performance monitoring interrupts
        IWI:          1          0   IRQ work interrupts
        RTR:          0          0   APIC ICR read retries
        RES:    2288703    1534688   Rescheduling interrupts
        CAL:    1057368     272268   Function call interrupts
        TLB:          0          0   TLB shootdowns
        TRM:          0          0   Thermal event interrupts
        ERR:          0
        MIS:          0
        PIN:          0          0   Posted-interrupt notification event
        NPI:          0          0   Nested posted-interrupt event
        PIW:          0          0   Posted-interrupt wakeup event
        """;

  private static final DuetCpus HALVES = new DuetCpus(CpuList.parse("0"), CpuList.parse("1"));

  @Test
  void sumsTheNumberedDeviceLinesPerSetAndLeavesEachCpusOwnInterruptsOut() {
    InterruptShares shares = InterruptShares.parse(THIS_VM, HALVES);
    long cpu0 = 0;
    long cpu1 = 0;
    for (String line : THIS_VM.split("\n")) {
      String[] f = line.trim().split("\\s+");
      if (f[0].matches("\\d+:")) {
        cpu0 += Long.parseLong(f[1]);
        cpu1 += Long.parseLong(f[2]);
      }
    }
    assertThat(shares.one()).isEqualTo(cpu0);
    assertThat(shares.two()).isEqualTo(cpu1);
    assertThat(shares.two()).as("the disk's completions").isGreaterThan(3_000_000L);
    assertThat(shares.shareOfOne()).isLessThan(0.05);
  }

  @Test
  void warnsWhenOneSetTakesMostAndNamesIt() {
    assertThat(InterruptShares.parse(THIS_VM, HALVES).warning(HALVES)).hasValueSatisfying(w -> assertThat(w)
        .startsWith("CPUs 1 handle 9").contains("their side runs I/O-heavy steps slower")
        .contains("evened out over pairs of rounds only").contains("docs/designs.md, Interrupts")
        // One line a person reads (issue 49: it was four on a terminal), the fix in the docs.
        .doesNotContain("\n").hasSizeLessThan(170));
    DuetCpus inWindow = HALVES.withSwap(new SwapRule(CpuSwap.IN_WINDOW, SwapMover.CGROUP, SwapRule.defaultPeriod()));
    assertThat(InterruptShares.parse(THIS_VM, inWindow).warning(inWindow)).hasValueSatisfying(w -> assertThat(w)
        .contains("the swap inside every step evens it out").doesNotContain("pairs of rounds"));
    DuetCpus swapped = new DuetCpus(CpuList.parse("1"), CpuList.parse("0"));
    assertThat(InterruptShares.parse(THIS_VM, swapped).warning(swapped)).hasValueSatisfying(w -> assertThat(w)
        .startsWith("CPUs 1 handle 9"));
    assertThat(new InterruptShares(60_000, 40_000).warning(HALVES)).as("even enough").isEmpty();
    assertThat(new InterruptShares(9_000, 0).warning(HALVES)).as("too few to tell").isEmpty();
  }

  @Test
  void aMachineOfFourCpusSumsEachSetsColumns() {
    String four = String.join("\n", "           CPU0       CPU1       CPU2       CPU3",
        " 36:        10         20         30         40   PCI-MSIX  virtio1-req.0",
        " 37:         1          2          3          4   PCI-MSIX  virtio3-rx",
        "LOC:      9999       9999       9999       9999   Local timer interrupts");
    InterruptShares shares = InterruptShares.parse(four, new DuetCpus(CpuList.parse("0-1"), CpuList.parse("2-3")));
    assertThat(shares.one()).isEqualTo(33);
    assertThat(shares.two()).isEqualTo(77);
  }
}
