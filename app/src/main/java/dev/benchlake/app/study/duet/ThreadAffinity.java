package dev.benchlake.app.study.duet;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLong;
import dev.benchlake.core.CpuList;
import java.util.Optional;

/**
 * {@code sched_setaffinity(2)} on one thread (a task, by its id), called through JNA: what a user
 * may do to its own processes without root, and one system call, where {@code taskset} started a
 * process per move (0.7–0.9 s each, docs/designs.md).
 */
final class ThreadAffinity {
  /** The task is gone (it ended between its listing and its move). */
  private static final int ESRCH = 3;

  /**
   * libc's call, bound directly (JNA's direct mapping: a few µs less per call than an interface's
   * proxy, paid some 50 times a move). The mask is an array of unsigned longs, 64 bits each on the
   * 64-bit Linux this runs on.
   */
  private static final class Libc {
    static native int sched_setaffinity(int tid, NativeLong maskBytes, long[] mask) throws LastErrorException;
  }

  /** Whether libc was bound, or why it could not be. */
  private static final class Loaded {
    static final boolean LIBC;
    static final String WHY_NOT;

    static {
      boolean libc = false;
      String why = null;
      if (!System.getProperty("os.name", "").toLowerCase(java.util.Locale.ROOT).startsWith("linux")) {
        why = "sched_setaffinity is Linux's";
      } else if (!"64".equals(System.getProperty("sun.arch.data.model"))) {
        why = "the affinity mover needs a 64-bit JVM";
      } else {
        try {
          Native.register(Libc.class, "c");
          libc = true;
        } catch (LinkageError | RuntimeException e) {
          why = "JNA cannot call libc here (" + e.getMessage() + ")";
        }
      }
      LIBC = libc;
      WHY_NOT = why;
    }
  }

  private ThreadAffinity() {}

  /** Why threads cannot be moved here, or empty when they can. */
  static Optional<String> unavailable() {
    return Optional.ofNullable(Loaded.WHY_NOT);
  }

  /**
   * Puts task {@code tid} (a thread, or a single-threaded process by its pid) on {@code cpus}.
   *
   * @return false when the task is gone
   * @throws IllegalStateException when the kernel refuses (another user's task, CPUs outside its cpuset)
   */
  static boolean set(long tid, CpuList cpus) {
    if (!Loaded.LIBC) {
      throw new IllegalStateException(Loaded.WHY_NOT);
    }
    java.util.BitSet bits = cpus.cpus();
    long[] mask = new long[Math.max(1, (bits.length() + 63) / 64)];
    for (int cpu = bits.nextSetBit(0); cpu >= 0; cpu = bits.nextSetBit(cpu + 1)) {
      mask[cpu / 64] |= 1L << (cpu % 64);
    }
    try {
      Libc.sched_setaffinity(Math.toIntExact(tid), new NativeLong(mask.length * 8L), mask);
      return true;
    } catch (LastErrorException e) {
      if (e.getErrorCode() == ESRCH) {
        return false;
      }
      throw new IllegalStateException("sched_setaffinity(" + tid + ", " + cpus + "): " + e.getMessage(), e);
    }
  }
}
