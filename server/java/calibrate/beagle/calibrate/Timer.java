package beagle.calibrate;

/**
 * Times an operation: a warm-up (so that the JIT compiled it, as in a measured system's steady
 * state), repetitions grown until one sample is long against the clock, then the median of several
 * samples (a median, not a mean: a sample a collection or another process interrupted is dropped).
 */
final class Timer {
    /** An operation run {@code reps} times; what it returns goes into the sink. */
    interface Op {
        long run(int reps);
    }

    /** Whatever the operations computed, so that the JIT cannot drop their work. */
    static volatile long sink;

    final int samples;
    final long sampleNs;
    final long warmupNs;

    Timer(int samples, long sampleNs, long warmupNs) {
        this.samples = samples;
        this.sampleNs = sampleNs;
        this.warmupNs = warmupNs;
    }

    static long once(Op op, int reps) {
        long t0 = System.nanoTime();
        long s = op.run(reps);
        long t = System.nanoTime() - t0;
        sink ^= s;
        return t;
    }

    /** Repetitions for one sample of at least {@link #sampleNs}, after warming up for {@link #warmupNs}. */
    int repsFor(Op op, int minWarmupReps) {
        long start = System.nanoTime();
        int done = 0;
        int reps = 1;
        while (done < minWarmupReps || System.nanoTime() - start < warmupNs) {
            once(op, reps);
            done += reps;
            if (reps < (1 << 24)) {
                reps *= 2;
            }
        }
        reps = 1;
        while (true) {
            long t = once(op, reps);
            if (t >= sampleNs || reps >= (1 << 28)) {
                // Scale to the sample length from a measured one (grown by doubling, so t is at
                // least half of it): the samples last about sampleNs whatever the operation costs.
                return (int) Math.max(1, Math.min(1 << 28, (long) reps * sampleNs / Math.max(1, t)));
            }
            reps *= 2;
        }
    }

    /** Median ns per repetition of one operation. */
    double median(Op op, int minWarmupReps) {
        int reps = repsFor(op, minWarmupReps);
        double[] ns = new double[samples];
        for (int i = 0; i < samples; i++) {
            ns[i] = (double) once(op, reps) / reps;
        }
        return median(ns);
    }

    /**
     * Median ns per repetition of two operations, their samples interleaved so that a slow phase of
     * the machine touches both alike (a benchmark and its baseline are subtracted).
     */
    double[] pair(Op a, Op b, int minWarmupReps) {
        int ra = repsFor(a, minWarmupReps);
        int rb = repsFor(b, minWarmupReps);
        double[] na = new double[samples];
        double[] nb = new double[samples];
        for (int i = 0; i < samples; i++) {
            na[i] = (double) once(a, ra) / ra;
            nb[i] = (double) once(b, rb) / rb;
        }
        return new double[] {median(na), median(nb)};
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
    }
}
