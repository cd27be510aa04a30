package dev.benchlake.app.study.duet;

import dev.benchlake.core.CpuList;
import dev.benchlake.loadgen.LoadgenConfig;

/**
 * A duet's side in one pair: its name ({@code a}, {@code b}), what it runs, and the CPU set it
 * starts the pair on.
 */
public record SideRun(String name, LoadgenConfig config, CpuList cpus) {}
