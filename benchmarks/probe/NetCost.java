import beagle.probe.Probe;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Does a section report its code's cost net of the probes? A busy loop is tuned to cost TARGET ns
 * per call uninstrumented (thread CPU time over many calls), then timed inside CPU sections as the
 * instrumenter writes them, alone ("flat") and as an inner section with the same work again
 * around it ("nested": the outer section holds the inner one and as much work again, so its net
 * cost is twice the target). The probe's DEMAND_TOTAL records (read back from its own events file)
 * give the net ns per run; plain and instrumented rounds alternate, and the medians are compared.
 *
 * <p>{@code java -Dbeagle.events=FILE -cp PROBE:. NetCost ROUNDS CALLS TARGET_NS...}; prints
 * one line per target and configuration: {@code target flat|outer|inner plain_ns net_ns error}.
 */
public final class NetCost {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    static volatile long sink;

    private NetCost() {}

    /** A serial chain of xorshift rounds: no memory, no allocation, cost linear in `rounds`. */
    static long work(long x, int rounds) {
        for (int i = 0; i < rounds; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
        }
        return x;
    }

    /** Thread CPU ns per call of work(rounds), over `calls` calls. */
    static double plain(int rounds, int calls) {
        long x = 1;
        long start = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < calls; i++) {
            x = work(x + i, rounds);
        }
        long ns = THREADS.getCurrentThreadCpuTime() - start;
        sink = x;
        return (double) ns / calls;
    }

    static void flat(int section, int rounds, int calls) {
        long x = 1;
        long e = Probe.enter(0);
        try {
            for (int i = 0; i < calls; i++) {
                long t = Probe.startCpu(section);
                try {
                    x = work(x + i, rounds);
                } finally {
                    Probe.stopCpu(section, t);
                }
            }
        } finally {
            Probe.exit(e);
        }
        sink = x;
    }

    static void nested(int outer, int inner, int rounds, int calls) {
        long x = 1;
        long e = Probe.enter(0);
        try {
            for (int i = 0; i < calls; i++) {
                long t = Probe.startCpu(outer);
                try {
                    long u = Probe.startCpu(inner);
                    try {
                        x = work(x + i, rounds);
                    } finally {
                        Probe.stopCpu(inner, u);
                    }
                    x = work(x, rounds);
                } finally {
                    Probe.stopCpu(outer, t);
                }
            }
        } finally {
            Probe.exit(e);
        }
        sink = x;
    }

    /** Rounds of work that cost about `targetNs` per call. */
    static int tune(double targetNs) {
        int rounds = 16;
        for (int i = 0; i < 6; i++) {
            double ns = plain(rounds, Math.max(2000, (int) (2e7 / Math.max(targetNs, 50))));
            rounds = Math.max(1, (int) Math.round(rounds * targetNs / ns));
        }
        return rounds;
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        int calls = Integer.parseInt(args[1]);
        double[] targets = Arrays.stream(args, 2, args.length).mapToDouble(Double::parseDouble).toArray();
        Path events = Path.of(System.getProperty("beagle.events"));
        int[] work = new int[targets.length];
        for (int t = 0; t < targets.length; t++) {
            work[t] = tune(targets[t]);
        }
        // Warm-up: every configuration compiled before anything counts.
        for (int r = 0; r < 3; r++) {
            for (int t = 0; t < targets.length; t++) {
                plain(work[t], calls);
                flat(3 * t, work[t], calls);
                nested(3 * t + 1, 3 * t + 2, work[t], calls);
            }
        }
        Probe.calibrate();
        Probe.flushAll();
        long from = Files.size(events);
        List<List<Double>> plainNs = new ArrayList<>();
        for (int t = 0; t < targets.length; t++) {
            plainNs.add(new ArrayList<>());
        }
        for (int r = 0; r < rounds; r++) {
            for (int t = 0; t < targets.length; t++) {
                plainNs.get(t).add(plain(work[t], calls));
                flat(3 * t, work[t], calls);
                nested(3 * t + 1, 3 * t + 2, work[t], calls);
            }
        }
        Probe.flushAll();
        // Net ns per run of each section, per round (one DEMAND_TOTAL per execution and section).
        List<List<Double>> net = new ArrayList<>();
        for (int i = 0; i < 3 * targets.length; i++) {
            net.add(new ArrayList<>());
        }
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(events)).order(ByteOrder.LITTLE_ENDIAN);
        b.position((int) from);
        while (b.remaining() >= 32) {
            int type = b.getInt();
            int section = b.getInt();
            b.getLong();
            long a = b.getLong();
            long count = b.getLong();
            if (type == 7 && section >= 0 && section < net.size() && count > 0) {
                net.get(section).add((double) a / count);
            }
        }
        for (int t = 0; t < targets.length; t++) {
            double p = median(plainNs.get(t));
            String[] names = {"flat", "outer", "inner"};
            double[] expected = {p, 2 * p, p};
            for (int k = 0; k < 3; k++) {
                double n = median(net.get(3 * t + k));
                System.out.printf(Locale.ROOT, "%.0f %s %.1f %.1f %.4f%n", targets[t], names[k], expected[k], n,
                        (n - expected[k]) / expected[k]);
            }
        }
    }
}
