import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * The floor under the probes: what each clock (and the thread-local lookup every probe makes)
 * costs per call here. A CPU section reads the thread CPU clock once or twice, a wall section
 * System.nanoTime twice, so no probe change can go below these.
 *
 * Usage: java ClockCost CALLS REPETITIONS. Prints `median SOURCE NS_PER_CALL`.
 */
public final class ClockCost {
    static volatile long sink;
    static final String[] SOURCES = {"System.nanoTime", "ThreadMXBean.getCurrentThreadCpuTime",
        "ThreadMXBean.getCurrentThreadUserTime", "ThreadLocal.get"};

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int repetitions = Integer.parseInt(args[1]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        ThreadLocal<long[]> local = ThreadLocal.withInitial(() -> new long[1]);
        double[][] ns = new double[SOURCES.length][repetitions];
        for (int r = -1; r < repetitions; r++) {
            for (int s = 0; s < SOURCES.length; s++) {
                // The user-time clock is far slower: fewer calls keep the run short.
                int n = s == 2 ? Math.max(1, calls / 50) : calls;
                long acc = 0;
                long t0 = System.nanoTime();
                switch (s) {
                    case 0: for (int i = 0; i < n; i++) acc += System.nanoTime(); break;
                    case 1: for (int i = 0; i < n; i++) acc += threads.getCurrentThreadCpuTime(); break;
                    case 2: for (int i = 0; i < n; i++) acc += threads.getCurrentThreadUserTime(); break;
                    default: for (int i = 0; i < n; i++) acc += local.get()[0]++; break;
                }
                long t1 = System.nanoTime();
                sink = acc;
                if (r >= 0) {
                    ns[s][r] = (t1 - t0) / (double) n;
                }
            }
        }
        for (int s = 0; s < SOURCES.length; s++) {
            double[] v = ns[s].clone();
            java.util.Arrays.sort(v);
            double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            System.out.printf("median %s %.1f%n", SOURCES[s], median);
        }
    }
}
