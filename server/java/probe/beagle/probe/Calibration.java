package beagle.probe;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;

/**
 * What the probes cost, measured in this JVM on the calling thread, in picoseconds.
 *
 * <p>Two quantities per kind of probe:
 * <ul>
 *   <li>a <em>bias</em>: what an empty section (or an empty service execution, when its CPU time is
 *       measured) reports: the part of its own clock readings and bookkeeping that falls between
 *       them. A CPU section whose start reused the thread's last reading has a bias of its own.</li>
 *   <li>a <em>cost</em>: how much one probe (a whole section, an execution's entry and exit, a
 *       parameter capture, an external call's mark, a loop or branch record) adds to a CPU
 *       measurement around it: timed as many empty probes inside one thread CPU clock interval,
 *       less the same loop without them.</li>
 * </ul>
 * Both are the median of {@link #BATCHES} batch means, after a warm-up that lets the JIT compile
 * the probes; the spread of the batch means is the calibration's noise: a section whose net cost
 * is below it cannot be told from nothing. Records made while calibrating are dropped.
 */
final class Calibration {
    /** Kinds, as CALIBRATION records name them (section field); a: value in ps, b: noise in ps. */
    static final int CPU_FRESH_BIAS = 1, CPU_REUSE_BIAS = 2, WALL_BIAS = 3, SERVICE_BIAS = 4, SHORT_BIAS = 5,
            NESTED_SERVICE_BIAS = 6,
            CPU_FRESH_COST = 11, CPU_REUSE_COST = 12, WALL_COST = 13, SERVICE_COST = 14, PARAM_COST = 15,
            CALL_COST = 16, LOOP_COST = 17, BRANCH_COST = 18, SHORT_COST = 19, CPU_STEP = 20,
            NESTED_SHORT_COST = 10;

    static final int BATCHES = 9;
    static final int PER_BATCH = Integer.getInteger("beagle.calibrationRuns", 400);
    static final int WARMUP = Integer.getInteger("beagle.calibrationWarmup", 20_000);

    static final Calibration NONE = new Calibration(new long[21], new long[21]);

    final long cpuFreshBias, cpuReuseBias, wallBias, serviceBias, shortBias, nestedServiceBias;
    final long cpuFreshCost, cpuReuseCost, wallCost, serviceCost, paramCost, callCost, loopCost, branchCost, shortCost;
    /** A short section inside another section (which reads no CPU clock now and then: see Probe.startCpu). */
    final long nestedShortCost;
    /** Values and noises by kind. */
    final long[] value, noise;
    /** One reading of the thread CPU clock (at least its resolution). */
    final long cpuStep;

    private Calibration(long[] value, long[] noise) {
        this.value = value;
        this.noise = noise;
        cpuFreshBias = value[CPU_FRESH_BIAS];
        cpuReuseBias = value[CPU_REUSE_BIAS];
        wallBias = value[WALL_BIAS];
        serviceBias = value[SERVICE_BIAS];
        shortBias = value[SHORT_BIAS];
        nestedServiceBias = value[NESTED_SERVICE_BIAS];
        shortCost = value[SHORT_COST];
        cpuStep = value[CPU_STEP];
        nestedShortCost = value[NESTED_SHORT_COST];
        cpuFreshCost = value[CPU_FRESH_COST];
        cpuReuseCost = value[CPU_REUSE_COST];
        wallCost = value[WALL_COST];
        serviceCost = value[SERVICE_COST];
        paramCost = value[PARAM_COST];
        callCost = value[CALL_COST];
        loopCost = value[LOOP_COST];
        branchCost = value[BRANCH_COST];
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** Kept so that the JIT cannot drop the baseline loop. */
    static volatile long sink;

    /** What one calibration run does per probe; the bias kinds read the probe's raw difference. */
    private static final int[] BIASES = {CPU_FRESH_BIAS, CPU_REUSE_BIAS, WALL_BIAS, NESTED_SERVICE_BIAS, SHORT_BIAS};
    private static final int[] COSTS = {
        CPU_FRESH_COST, CPU_REUSE_COST, WALL_COST, SERVICE_COST, PARAM_COST, CALL_COST, LOOP_COST, BRANCH_COST,
        SHORT_COST, NESTED_SHORT_COST
    };
    private static final int BASELINE = 0;

    /** Measures the costs on `s`'s thread (which is in no section or execution). */
    static Calibration measure(Probe.State s) {
        // The costs in force stay in force (other threads use them); what is measured here is
        // the probes' CPU time and their raw differences, which no subtraction touches.
        s.discarding = true;
        s.discardMark = s.buffer.position();
        long probeBefore = s.probePs;
        long[][] batches = new long[21][BATCHES];
        try {
            long e = Probe.enter(0);
            for (int kind : COSTS) {
                cost(s, kind, WARMUP);
            }
            for (int kind : BIASES) {
                bias(s, kind, WARMUP);
            }
            cost(s, BASELINE, WARMUP);
            for (int b = 0; b < BATCHES; b++) {
                long base = cost(s, BASELINE, PER_BATCH);
                for (int kind : COSTS) {
                    batches[kind][b] = (cost(s, kind, PER_BATCH) - base) / PER_BATCH;
                }
                for (int kind : BIASES) {
                    batches[kind][b] = bias(s, kind, PER_BATCH) / PER_BATCH;
                }
            }
            Probe.exit(e);
            // An outermost execution (depth 0) reads the CPU clock at entry and exit.
            bias(s, SERVICE_BIAS, WARMUP / 4);
            for (int b = 0; b < BATCHES; b++) {
                batches[SERVICE_BIAS][b] = bias(s, SERVICE_BIAS, PER_BATCH) / PER_BATCH;
            }
        } finally {
            s.buffer.position(s.discardMark);
            s.discarding = false;
            s.probePs = probeBefore;
            s.hasCpu = false;
        }
        long[] value = new long[21];
        long[] noise = new long[21];
        for (int kind : COSTS) {
            summarise(batches[kind], kind, value, noise);
        }
        for (int kind : BIASES) {
            summarise(batches[kind], kind, value, noise);
        }
        summarise(batches[SERVICE_BIAS], SERVICE_BIAS, value, noise);
        if (!Probe.SERVICE_CPU) {
            // No execution timed: nothing reported to correct.
            value[SERVICE_BIAS] = noise[SERVICE_BIAS] = value[NESTED_SERVICE_BIAS] = noise[NESTED_SERVICE_BIAS] = 0;
        }
        value[CPU_STEP] = stepNs() * 1000;
        return new Calibration(value, noise);
    }

    /** Median of the batch means (never below 0) and their standard deviation. */
    private static void summarise(long[] means, int kind, long[] value, long[] noise) {
        long[] sorted = means.clone();
        Arrays.sort(sorted);
        value[kind] = Math.max(0, sorted[sorted.length / 2]);
        double mean = 0;
        for (long m : means) {
            mean += m;
        }
        mean /= means.length;
        double ss = 0;
        for (long m : means) {
            ss += (m - mean) * (m - mean);
        }
        noise[kind] = Math.round(Math.sqrt(ss / (means.length - 1)));
    }

    /** Thread CPU ps of `n` probes of `kind` (or of the bare loop: BASELINE). */
    private static long cost(Probe.State s, int kind, int n) {
        // A nested short section runs inside an open section (opened before the clock starts).
        long outer = kind == NESTED_SHORT_COST ? Probe.startWall() : 0;
        long start = THREADS.getCurrentThreadCpuTime();
        long x = 0;
        for (int i = 0; i < n; i++) {
            switch (kind) {
                case CPU_FRESH_COST -> {
                    s.hasCpu = false;
                    Probe.stopCpu(0, Probe.startCpu());
                }
                case CPU_REUSE_COST -> Probe.stopCpu(0, Probe.startCpu());
                case SHORT_COST, NESTED_SHORT_COST -> {
                    s.setShort(0, true);
                    Probe.stopCpu(0, Probe.startCpu(0));
                }
                case WALL_COST -> Probe.stopWall(0, Probe.startWall());
                case SERVICE_COST -> Probe.exit(Probe.enter(0));
                case PARAM_COST -> Probe.param(0, 0, (long) i);
                case CALL_COST -> Probe.call(0);
                case LOOP_COST -> Probe.loop(0, i);
                case BRANCH_COST -> Probe.branch(0);
                default -> x += i;
            }
        }
        sink = x;
        long ps = (THREADS.getCurrentThreadCpuTime() - start) * 1000;
        if (kind == NESTED_SHORT_COST) {
            Probe.stopWall(1, outer);
        }
        return ps;
    }

    /** Sum of the raw differences (ps) that `n` empty sections or executions of `kind` report. */
    private static long bias(Probe.State s, int kind, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            switch (kind) {
                case CPU_FRESH_BIAS -> {
                    s.hasCpu = false;
                    Probe.stopCpu(0, Probe.startCpu());
                }
                case CPU_REUSE_BIAS -> Probe.stopCpu(0, Probe.startCpu());
                case SHORT_BIAS -> {
                    s.setShort(0, true);
                    Probe.stopCpu(0, Probe.startCpu(0));
                }
                case WALL_BIAS -> Probe.stopWall(0, Probe.startWall());
                default -> Probe.exit(Probe.enter(0));
            }
            sum += s.lastRawPs;
        }
        return sum;
    }

    /**
     * The smallest step between two readings of the thread CPU clock: its resolution, or (where
     * that is finer) the cost of one reading.
     */
    static long stepNs() {
        long best = Long.MAX_VALUE;
        for (int i = 0; i < 50; i++) {
            long a = THREADS.getCurrentThreadCpuTime();
            long b;
            do {
                b = THREADS.getCurrentThreadCpuTime();
            } while (b == a);
            best = Math.min(best, b - a);
        }
        return best;
    }

    /** Writes the calibration as CALIBRATION records of `s`'s thread. */
    void write(Probe.State s) {
        for (int kind : BIASES) {
            s.record(Probe.CALIBRATION, kind, 0, value[kind], noise[kind]);
        }
        s.record(Probe.CALIBRATION, SERVICE_BIAS, 0, value[SERVICE_BIAS], noise[SERVICE_BIAS]);
        for (int kind : COSTS) {
            s.record(Probe.CALIBRATION, kind, 0, value[kind], noise[kind]);
        }
        s.record(Probe.CALIBRATION, CPU_STEP, 0, value[CPU_STEP], 0);
    }
}
