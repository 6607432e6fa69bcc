import beagle.probe.Probe;

/**
 * A MooBench-style overhead benchmark of Beagle's probes: one monitored method doing a fixed
 * amount of work, called in a tight loop, uninstrumented and in hand-instrumented variants that
 * call the probes exactly as the instrumenter does (server/java/README.md). Each repetition times
 * N calls as a whole (no clock read per call, which would itself be overhead); the configurations
 * run round-robin, so drift (frequency, a neighbour) hits them alike; warm-up repetitions (JIT
 * compilation of every variant) are discarded.
 *
 * Usage: java -cp PROBE_CLASSES:. -Dbeagle.events=FILE MonitoredLoop CALLS REPETITIONS WARMUP WORK
 * Prints one line per repetition (`rep CONFIG NS_PER_CALL`), then `median CONFIG NS_PER_CALL`.
 */
public final class MonitoredLoop {
    static final int SERVICE = 0, DEMAND = 1, SLOT = 0;
    static final String[] CONFIGS = {
        "uninstrumented", "cpu-section", "wall-section", "service", "service+cpu", "cpu-section-in-loop"
    };

    /** The work's size (xorshift rounds); a field, so the JIT cannot fold the loop. */
    static int work;
    /** Results flow here, so the JIT cannot drop the work. */
    static volatile long sink;

    /** The fixed amount of work: a serial chain of xorshift rounds (no memory, no allocation). */
    static long work(long x) {
        for (int i = 0; i < work; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    static long uninstrumented(long x) {
        return work(x);
    }

    /** An internal action whose CPU demand is measured. */
    static long cpuSection(long x) {
        long t = Probe.startCpu();
        try {
            return work(x);
        } finally {
            Probe.stopCpu(DEMAND, t);
        }
    }

    /** An internal action on another resource (wall time). */
    static long wallSection(long x) {
        long t = Probe.startWall();
        try {
            return work(x);
        } finally {
            Probe.stopWall(DEMAND, t);
        }
    }

    /** A SEFF's method: an execution with one parameter. */
    static long service(long x) {
        long e = Probe.enter(SERVICE);
        try {
            Probe.param(e, SLOT, x);
            return work(x);
        } finally {
            Probe.exit(e);
        }
    }

    /** A SEFF's method whose body is one CPU-timed internal action: the usual whole. */
    static long serviceCpu(long x) {
        long e = Probe.enter(SERVICE);
        try {
            Probe.param(e, SLOT, x);
            long t = Probe.startCpu();
            try {
                return work(x);
            } finally {
                Probe.stopCpu(DEMAND, t);
            }
        } finally {
            Probe.exit(e);
        }
    }

    /** Times `calls` calls of one configuration; a loop per configuration, so each inlines its own. */
    static double run(int config, int calls) {
        long acc = 0;
        long t0 = System.nanoTime();
        switch (config) {
            case 0: for (int i = 0; i < calls; i++) acc += uninstrumented(i); break;
            case 1: for (int i = 0; i < calls; i++) acc += cpuSection(i); break;
            case 2: for (int i = 0; i < calls; i++) acc += wallSection(i); break;
            case 3: for (int i = 0; i < calls; i++) acc += service(i); break;
            case 4: for (int i = 0; i < calls; i++) acc += serviceCpu(i); break;
            default: {
                // An internal action inside a hot loop of one service execution (issue 16): the
                // probe adds up the section's runs and writes one total at the exit.
                long e = Probe.enter(SERVICE);
                try {
                    for (int i = 0; i < calls; i++) acc += cpuSection(i);
                } finally {
                    Probe.exit(e);
                }
            }
        }
        long t1 = System.nanoTime();
        sink = acc;
        return (t1 - t0) / (double) calls;
    }

    public static void main(String[] args) {
        int calls = Integer.parseInt(args[0]);
        int repetitions = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        work = Integer.parseInt(args[3]);
        double[][] ns = new double[CONFIGS.length][repetitions];
        for (int r = -warmup; r < repetitions; r++) {
            for (int c = 0; c < CONFIGS.length; c++) {
                double v = run(c, calls);
                if (r >= 0) {
                    ns[c][r] = v;
                    System.out.printf("rep %s %.2f%n", CONFIGS[c], v);
                }
            }
            Probe.flushAll();
        }
        for (int c = 0; c < CONFIGS.length; c++) {
            double[] v = ns[c].clone();
            java.util.Arrays.sort(v);
            double median = v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
            System.out.printf("median %s %.2f%n", CONFIGS[c], median);
        }
    }
}
