package dev.benchlake.core.raw;

/**
 * Which CPUs a run's processes were allowed to run on when it started ({@code cpu_affinity} in
 * the manifest), each a CPU list as Linux writes it ({@code Cpus_allowed_list} of
 * {@code /proc/PID/status}, e.g. {@code 0-3,8}). A duet pins each side's client and embedded
 * server to a CPU set of its own; the manifest keeps what the processes actually had, read from
 * the kernel, not what was asked for.
 *
 * @param client the load generator's own process
 * @param server the database server's main process (the postmaster); absent when it cannot be read
 *     (a server on another machine, or any server of a {@code --jdbc-url} target: only the client
 *     is pinned there)
 * @param backend one backend of that server (the run's set-up connection); backends are forked by
 *     the postmaster and inherit its set
 */
public record CpuAffinity(String client, String server, String backend) {}
