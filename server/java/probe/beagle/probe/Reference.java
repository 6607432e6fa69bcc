package beagle.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * A fixed piece of work whose thread CPU time says how fast the machine runs code right now: the
 * launcher times it between windows of measured runs ({@link Windows}). Another process cannot
 * take CPU time from a thread (a time slice it loses is not counted), but it can make the same
 * work take more of it: by evicting the caches the code and its data live in, by sharing the
 * core's execution units (its other hardware thread), by memory bandwidth. Those slow this work
 * as they slow the measured code, so a window whose reference ran slower than usual was measured
 * on a disturbed machine.
 *
 * <p>Two parts, each sensitive to one kind of interference: a chase of dependent loads through a
 * 1 MB table, brought into the caches first (another process's data evicts it while it runs) and a chain
 * of multiplications and additions (execution units a hardware thread shares). About 0.15 ms each on a 2020s
 * machine; timed twice.
 */
final class Reference {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** A single cycle through every slot, in a scrambled order: each load depends on the last. */
    private static final int[] NEXT = cycle(1 << 18);
    private static final int LOADS = 1 << 14;
    private static final int STEPS = 1 << 15;
    /** Keeps the JIT from dropping the work as unused. */
    static volatile long sink;

    private Reference() {}

    /** The thread CPU time of one run of the work, in ns. */
    static long time() {
        // The measured program's own data evicted the table: brought back first, untimed, so
        // that what is timed is the machine now, not what the program left in the caches.
        sink = touch();
        // The shorter of two: one timing alone is 20 % over its usual in a tenth of them on a
        // quiet 2-core machine (a timer interrupt, the host), two in a row far more rarely; a
        // process that keeps disturbing slows both.
        return Math.min(once(), once());
    }

    private static long once() {
        long t0 = THREADS.getCurrentThreadCpuTime();
        long r = work();
        long t1 = THREADS.getCurrentThreadCpuTime();
        sink = r;
        return t1 - t0;
    }

    static long work() {
        int at = 0;
        for (int i = 0; i < LOADS; i++) {
            at = NEXT[at];
        }
        long x = at | 1;
        for (int i = 0; i < STEPS; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    /** Reads a slot of every cache line of the table, in order (prefetched: quick). */
    private static long touch() {
        long sum = 0;
        for (int i = 0; i < NEXT.length; i += 16) {
            sum += NEXT[i];
        }
        return sum;
    }

    /** A random single cycle over n slots (Sattolo's algorithm), from a fixed seed. */
    private static int[] cycle(int n) {
        int[] next = new int[n];
        for (int i = 0; i < n; i++) {
            next[i] = i;
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(0x5eed);
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i);
            int t = next[i];
            next[i] = next[j];
            next[j] = t;
        }
        return next;
    }
}
