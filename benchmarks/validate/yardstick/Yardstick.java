import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The yardstick of issue 35: what one call of a service costs in the real system, uninstrumented
 * and JIT warm, as thread CPU time per call. Plain Java 17, no dependency and no Beagle class, so
 * nothing of Beagle's probe can leak into what it measures.
 *
 * <pre>
 * java -cp CLASSES:. Yardstick --main pkg.Driver [--calls 30] [--min-cpu-ms 500] [--max-calls 100000]
 *                              [--warmup 30] [--warmup-cpu-ms 2000] [--warmup-ms 2000]
 *                              [--json] [--per-call] [--points FILE|-]
 * java Yardstick --self-test [--warmup-cpu-ms 2000] [--min-cpu-ms 500]
 * </pre>
 *
 * One parameter point per line of the points file (standard input by default): the launch's
 * arguments, split at white space (quotes group, '#' starts a comment line). The main class must
 * follow the launch-driver convention: {@code public static Runnable prepare(String[] args)} that
 * parses the arguments, builds the inputs and wires the components, and returns a Runnable making
 * exactly one call of the service. A fresh Runnable is prepared for every call (not timed); only
 * {@code run()} is timed, between two readings of {@link ThreadMXBean#getCurrentThreadCpuTime()}.
 *
 * <p>Warm-up first: round robin over all points until every point has had at least
 * {@code --warmup} calls and at least {@code --warmup-cpu-ms} of thread CPU time in its own
 * {@code run()} calls (issue 51: a tiny call needs thousands of repetitions to reach C2, as a
 * server's would have had), and at least {@code --warmup-ms} of wall time have passed; a point
 * that is warm leaves the rotation, the others go on. So the JIT has compiled the code as the mix
 * of all points drives it. Then the measured calls, also round robin (each point sees the same
 * JIT state and the same drift of the machine): per point at least {@code --calls} and at least
 * {@code --min-cpu-ms} of CPU time (a 20-microsecond call gets thousands), at most
 * {@code --max-calls}. Per point: count, mean, median, 10 %-trimmed mean, min, max of the CPU
 * times in ms, the median wall time, the warm-up it had (calls, CPU ms), and the last call's
 * result ({@code toString()} of its Runnable, for checking); {@code --per-call} adds every call's
 * CPU time (ns) to the JSON.
 * TSV on standard output (a header line, one line per point), or JSON with {@code --json}; what
 * was run goes to standard error.
 */
public final class Yardstick {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private Yardstick() {}

    public static void main(String[] args) throws Exception {
        String main = null;
        String pointsFile = "-";
        int calls = 30;
        long minCpuMs = 500;
        int maxCalls = 100_000;
        int warmup = 30;
        long warmupCpuMs = 2000;
        long warmupMs = 2000;
        boolean json = false;
        boolean perCall = false;
        boolean selfTest = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--main" -> main = value(args, ++i);
                case "--points" -> pointsFile = value(args, ++i);
                case "--calls" -> calls = Integer.parseInt(value(args, ++i));
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i));
                case "--warmup-ms" -> warmupMs = Long.parseLong(value(args, ++i));
                case "--warmup-cpu-ms" -> warmupCpuMs = Long.parseLong(value(args, ++i));
                case "--min-cpu-ms" -> minCpuMs = Long.parseLong(value(args, ++i));
                case "--max-calls" -> maxCalls = Integer.parseInt(value(args, ++i));
                case "--json" -> json = true;
                case "--per-call" -> perCall = true;
                case "--self-test" -> selfTest = true;
                default -> usage("unknown option " + args[i]);
            }
        }
        enableCpuClock();
        if (selfTest) {
            System.exit(selfTest(warmupCpuMs, minCpuMs) ? 0 : 1);
        }
        if (main == null) {
            usage("--main is needed");
        }
        if (calls < 1 || warmup < 0 || warmupCpuMs < 0 || minCpuMs < 0 || maxCalls < calls) {
            usage("--calls must be at least 1, --max-calls at least --calls, the others at least 0");
        }
        List<String[]> points = readPoints(pointsFile);
        if (points.isEmpty()) {
            usage("no parameter points (one line of arguments per point)");
        }
        Method prepare = prepareMethod(main);
        double clockMs = clockCostMs();
        System.err.printf(Locale.ROOT,
                "yardstick: %s, %d points; warm-up per point: at least %d calls and %d ms of thread CPU time (and"
                        + " %d ms of wall time in all); measured per point: at least %d calls and %d ms of CPU time, at"
                        + " most %d calls; thread CPU clock: %.6f ms per reading; %s %s%n",
                main, points.size(), warmup, warmupCpuMs, warmupMs, calls, minCpuMs, maxCalls, clockMs,
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        long start = System.nanoTime();
        long cpuStart = THREADS.getCurrentThreadCpuTime();
        Warmup warm = warmUp(prepare, points, warmup, warmupCpuMs, warmupMs);
        long warmedUp = System.nanoTime();
        long warmCpu = THREADS.getCurrentThreadCpuTime() - cpuStart;
        List<Result> results = measure(prepare, points, calls, minCpuMs, maxCalls, warm);
        System.err.printf(Locale.ROOT, "yardstick: warm-up %d to %d calls per point, %.1f s wall, %.1f s thread CPU"
                        + " (run() %.0f to %.0f ms per point); measured %d to %d calls per point in %.1f s%n",
                warm.minCalls(), warm.maxCalls(), (warmedUp - start) / 1e9, warmCpu / 1e9,
                warm.minCpuMs(), warm.maxCpuMs(), results.stream().mapToInt(r -> r.cpuNs().length).min().orElse(0),
                results.stream().mapToInt(r -> r.cpuNs().length).max().orElse(0), (System.nanoTime() - warmedUp) / 1e9);
        Settings settings = new Settings(calls, minCpuMs, maxCalls, warmup, warmupCpuMs, warmupMs, warmCpu / 1e6);
        System.out.print(json ? json(main, settings, warm.minCalls(), clockMs, results, perCall) : tsv(results));
        System.out.flush();
    }

    // ---- the measurement --------------------------------------------------------------------

    /** What the run was asked for (the JSON's header). */
    record Settings(int calls, long minCpuMs, int maxCalls, int warmup, long warmupCpuMs, long warmupMs,
            double warmupThreadCpuMs) {}

    /** The warm-up each point had: its calls and the thread CPU time of their run() (ns). */
    record Warmup(int[] calls, long[] cpuNs) {
        int minCalls() {
            return Arrays.stream(calls).min().orElse(0);
        }

        int maxCalls() {
            return Arrays.stream(calls).max().orElse(0);
        }

        double minCpuMs() {
            return Arrays.stream(cpuNs).min().orElse(0) / 1e6;
        }

        double maxCpuMs() {
            return Arrays.stream(cpuNs).max().orElse(0) / 1e6;
        }
    }

    /**
     * Round robin over the points; a point leaves the rotation once it had `warmup` calls and
     * `warmupCpuMs` of thread CPU time in its run() calls (issue 51: each point warm as a server's
     * would be, however short its calls), but none before `warmupMs` of wall time have passed
     * (unless both other targets are 0: no warm-up at all). The run() calls are timed by the thread
     * CPU clock, as the measured ones are.
     */
    static Warmup warmUp(Method prepare, List<String[]> points, int warmup, long warmupCpuMs, long warmupMs) {
        int n = points.size();
        int[] calls = new int[n];
        long[] cpu = new long[n];
        long target = warmupCpuMs * 1_000_000;
        boolean any = warmup > 0 || warmupCpuMs > 0;
        long until = System.nanoTime() + warmupMs * 1_000_000;
        boolean again = any;
        while (again) {
            again = false;
            boolean wallLeft = System.nanoTime() < until;
            for (int p = 0; p < n; p++) {
                if (calls[p] >= warmup && cpu[p] >= target && !wallLeft) {
                    continue;
                }
                Runnable call = prepare(prepare, points.get(p));
                long c0 = THREADS.getCurrentThreadCpuTime();
                call.run();
                cpu[p] += THREADS.getCurrentThreadCpuTime() - c0;
                calls[p]++;
                again = true;
            }
        }
        return new Warmup(calls, cpu);
    }

    /**
     * Timed calls, round robin; a fresh Runnable per call, prepared untimed. Each point gets at
     * least `calls` calls and at least `minCpuMs` of CPU time in them (a 20-microsecond call
     * needs thousands for a stable mean), at most `maxCalls`.
     */
    static List<Result> measure(Method prepare, List<String[]> points, int calls, long minCpuMs, int maxCalls,
            Warmup warm) {
        int n = points.size();
        long[][] cpu = new long[n][calls];
        long[][] wall = new long[n][calls];
        int[] count = new int[n];
        long[] sum = new long[n];
        long target = minCpuMs * 1_000_000;
        String[] last = new String[n];
        boolean again = true;
        while (again) {
            again = false;
            for (int p = 0; p < n; p++) {
                if (count[p] >= maxCalls || (count[p] >= calls && sum[p] >= target)) {
                    continue;
                }
                Runnable call = prepare(prepare, points.get(p));
                long w0 = System.nanoTime();
                long c0 = THREADS.getCurrentThreadCpuTime();
                call.run();
                long c1 = THREADS.getCurrentThreadCpuTime();
                long w1 = System.nanoTime();
                int c = count[p]++;
                if (c == cpu[p].length) {
                    cpu[p] = Arrays.copyOf(cpu[p], Math.min(maxCalls, 2 * c));
                    wall[p] = Arrays.copyOf(wall[p], cpu[p].length);
                }
                cpu[p][c] = c1 - c0;
                wall[p][c] = w1 - w0;
                sum[p] += c1 - c0;
                last[p] = String.valueOf(call); // the result: keeps the call observable
                again = true;
            }
        }
        List<Result> results = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            results.add(new Result(p + 1, points.get(p), Arrays.copyOf(cpu[p], count[p]),
                    Arrays.copyOf(wall[p], count[p]), last[p], warm.calls()[p], warm.cpuNs()[p] / 1e6));
        }
        return results;
    }

    /** Per point: statistics of the thread CPU times (ns in, ms out), and the warm-up it had. */
    record Result(int index, String[] args, long[] cpuNs, long[] wallNs, String result, int warmupCalls,
            double warmupCpuMs) {
        double measuredCpuMs() {
            return Arrays.stream(cpuNs).sum() / 1e6;
        }

        double[] sortedMs() {
            double[] ms = Arrays.stream(cpuNs).mapToDouble(ns -> ns / 1e6).toArray();
            Arrays.sort(ms);
            return ms;
        }

        double mean() {
            return Arrays.stream(cpuNs).average().orElse(Double.NaN) / 1e6;
        }

        double median() {
            return median(sortedMs());
        }

        /** The mean without the lowest and highest tenth (at least one each once there are 10). */
        double trimmedMean() {
            double[] ms = sortedMs();
            int cut = ms.length / 10;
            return Arrays.stream(ms, cut, ms.length - cut).average().orElse(Double.NaN);
        }

        double min() {
            return sortedMs()[0];
        }

        double max() {
            double[] ms = sortedMs();
            return ms[ms.length - 1];
        }

        double wallMedian() {
            double[] ms = Arrays.stream(wallNs).mapToDouble(ns -> ns / 1e6).toArray();
            Arrays.sort(ms);
            return median(ms);
        }

        static double median(double[] sorted) {
            int n = sorted.length;
            return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        }
    }

    static Runnable prepare(Method prepare, String[] args) {
        try {
            Object call = prepare.invoke(null, (Object) args.clone());
            if (call == null) {
                throw new IllegalStateException("prepare returned null for " + String.join(" ", args));
            }
            return (Runnable) call;
        } catch (InvocationTargetException e) {
            Throwable cause = e.getCause();
            System.err.println("yardstick: prepare(" + String.join(" ", args) + ") failed: " + cause);
            System.exit(2);
            throw new AssertionError(cause);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException(e);
        }
    }

    static Method prepareMethod(String mainClass) {
        try {
            Class<?> driver = Class.forName(mainClass);
            Method prepare = driver.getMethod("prepare", String[].class);
            if (!Modifier.isStatic(prepare.getModifiers()) || !Runnable.class.isAssignableFrom(prepare.getReturnType())) {
                usage(mainClass + ".prepare(String[]) must be static and return a Runnable");
            }
            return prepare;
        } catch (ClassNotFoundException e) {
            usage("class " + mainClass + " not found on the class path");
        } catch (NoSuchMethodException e) {
            usage(mainClass + " has no public static Runnable prepare(String[] args) (the launch-driver convention)");
        }
        throw new AssertionError();
    }

    static void enableCpuClock() {
        if (!THREADS.isCurrentThreadCpuTimeSupported()) {
            System.err.println("yardstick: this JVM has no thread CPU clock");
            System.exit(2);
        }
        if (!THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
    }

    /** What one reading of the thread CPU clock costs (median over many back-to-back pairs), ms. */
    static double clockCostMs() {
        int n = 20_001;
        long[] d = new long[n];
        for (int round = 0; round < 2; round++) { // the first round warms the path up
            for (int i = 0; i < n; i++) {
                long a = THREADS.getCurrentThreadCpuTime();
                long b = THREADS.getCurrentThreadCpuTime();
                d[i] = b - a;
            }
        }
        Arrays.sort(d);
        return d[n / 2] / 1e6;
    }

    // ---- input and output -------------------------------------------------------------------

    static List<String[]> readPoints(String file) throws IOException {
        List<String> lines;
        if (file.equals("-")) {
            lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).lines().toList();
        } else {
            lines = Files.readAllLines(Path.of(file), StandardCharsets.UTF_8);
        }
        List<String[]> points = new ArrayList<>();
        for (String line : lines) {
            String trimmed = line.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("#")) {
                continue;
            }
            points.add(split(trimmed));
        }
        return points;
    }

    /** White-space separated words; single or double quotes group (no escapes inside). */
    static String[] split(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean inWord = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quote != 0) {
                if (ch == quote) {
                    quote = 0;
                } else {
                    word.append(ch);
                }
            } else if (ch == '\'' || ch == '"') {
                quote = ch;
                inWord = true;
            } else if (Character.isWhitespace(ch)) {
                if (inWord) {
                    words.add(word.toString());
                    word.setLength(0);
                    inWord = false;
                }
            } else {
                word.append(ch);
                inWord = true;
            }
        }
        if (inWord) {
            words.add(word.toString());
        }
        return words.toArray(String[]::new);
    }

    static String tsv(List<Result> results) {
        StringBuilder out = new StringBuilder(
                "point\targs\tcount\tmean_ms\tmedian_ms\ttrimmed_mean_ms\tmin_ms\tmax_ms\twall_median_ms"
                        + "\twarmup_calls\twarmup_cpu_ms\tresult\n");
        for (Result r : results) {
            out.append(String.format(Locale.ROOT, "%d\t%s\t%d\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%.6f\t%d\t%.1f\t%s%n",
                    r.index(), String.join(" ", r.args()), r.cpuNs().length, r.mean(), r.median(), r.trimmedMean(),
                    r.min(), r.max(), r.wallMedian(), r.warmupCalls(), r.warmupCpuMs(),
                    r.result().replace('\t', ' ').replace('\n', ' ')));
        }
        return out.toString();
    }

    static String json(String main, Settings s, int warmupCalls, double clockMs, List<Result> results,
            boolean perCall) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT,
                "{\"main\": %s, \"calls\": %d, \"min_cpu_ms\": %d, \"max_calls\": %d, \"warmup_calls_per_point\": %d,"
                        + " \"warmup_min_calls\": %d, \"warmup_cpu_target_ms\": %d, \"warmup_wall_min_ms\": %d,"
                        + " \"warmup_thread_cpu_ms\": %.1f, \"clock_ms\": %.6f, \"java\": %s, \"points\": [",
                quote(main), s.calls(), s.minCpuMs(), s.maxCalls(), warmupCalls, s.warmup(), s.warmupCpuMs(),
                s.warmupMs(), s.warmupThreadCpuMs(), clockMs, quote(System.getProperty("java.version"))));
        for (int i = 0; i < results.size(); i++) {
            Result r = results.get(i);
            StringBuilder args = new StringBuilder("[");
            for (int a = 0; a < r.args().length; a++) {
                args.append(a > 0 ? ", " : "").append(quote(r.args()[a]));
            }
            args.append(']');
            out.append(i > 0 ? ",\n  " : "\n  ");
            out.append(String.format(Locale.ROOT,
                    "{\"point\": %d, \"args\": %s, \"count\": %d, \"mean_ms\": %.6f, \"median_ms\": %.6f,"
                            + " \"trimmed_mean_ms\": %.6f, \"min_ms\": %.6f, \"max_ms\": %.6f,"
                            + " \"wall_median_ms\": %.6f, \"measured_cpu_ms\": %.3f, \"warmup_calls\": %d,"
                            + " \"warmup_cpu_ms\": %.3f, \"result\": %s",
                    r.index(), args, r.cpuNs().length, r.mean(), r.median(), r.trimmedMean(), r.min(), r.max(),
                    r.wallMedian(), r.measuredCpuMs(), r.warmupCalls(), r.warmupCpuMs(), quote(r.result())));
            if (perCall) {
                out.append(", \"cpu_ns\": ").append(Arrays.toString(r.cpuNs()));
            }
            out.append('}');
        }
        out.append("\n]}\n");
        return out.toString();
    }

    static String quote(String s) {
        StringBuilder q = new StringBuilder("\"");
        for (char ch : s.toCharArray()) {
            switch (ch) {
                case '"' -> q.append("\\\"");
                case '\\' -> q.append("\\\\");
                case '\n' -> q.append("\\n");
                case '\t' -> q.append("\\t");
                default -> {
                    if (ch < 0x20) {
                        q.append(String.format("\\u%04x", (int) ch));
                    } else {
                        q.append(ch);
                    }
                }
            }
        }
        return q.append('"').toString();
    }

    static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    static void usage(String message) {
        System.err.println("yardstick: " + message);
        System.err.println("usage: java Yardstick --main CLASS [--calls N] [--min-cpu-ms MS] [--max-calls N] [--warmup N]"
                + " [--warmup-cpu-ms MS] [--warmup-ms MS] [--json] [--per-call] [--points FILE|-]\n"
                + "       java Yardstick --self-test [--warmup-cpu-ms MS] [--min-cpu-ms MS]");
        System.exit(2);
    }

    // ---- the self-test ----------------------------------------------------------------------

    /**
     * A trivial busy loop, timed twice: by the harness (prepare, warm-up, thread CPU time, the
     * same code path as a fixture) and by a different method, the wall clock around direct calls
     * (the least of many, so a call the scheduler interrupted does not count). A single-threaded
     * loop that neither allocates nor waits runs on the CPU all its wall time, so the two must
     * agree; and a loop five times as long must cost five times as much. Fails beyond 20 %.
     * A third, tiny loop (a hundredth of the first, about 20 microseconds) checks the warm-up and
     * the adaptive call count (issue 51): every point must have had at least `warmupCpuMs` of CPU
     * time in its warm-up calls (and not more than half as much again: the targets stop it), and
     * the tiny one at least `minCpuMs` of CPU time in its measured calls (thousands of them), at a
     * cost per iteration within 25 % of the first loop's.
     */
    static boolean selfTest(long warmupCpuMs, long minCpuMs) {
        // About 2 ms per call on this machine, found by doubling once the JIT has compiled the loop.
        for (int i = 0; i < 300; i++) {
            wallOfOneCall(1 << 16);
        }
        long n = 1 << 14;
        for (int i = 0; i < 60 && Math.min(wallOfOneCall(n), wallOfOneCall(n)) < 2_000_000; i++) {
            n = Math.min(n * 2, 1L << 40);
        }
        List<String[]> points = List.of(new String[] {"--n", Long.toString(n)},
                new String[] {"--n", Long.toString(5 * n)}, new String[] {"--n", Long.toString(n / 100)});
        Method prepare = prepareMethod(BusyLoop.class.getName());
        double clockMs = clockCostMs();
        Warmup warm = warmUp(prepare, points, 30, warmupCpuMs, 500);
        List<Result> results = measure(prepare, points, 30, minCpuMs, 1_000_000, warm);
        boolean ok = true;
        double[] cpu = new double[points.size()];
        for (int p = 0; p < 2; p++) {
            long iterations = Long.parseLong(points.get(p)[1]);
            cpu[p] = results.get(p).median();
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 30; i++) {
                best = Math.min(best, wallOfOneCall(iterations));
            }
            double wallMs = best / 1e6;
            double error = Math.abs(cpu[p] - wallMs) / wallMs;
            boolean pass = error <= 0.20;
            ok &= pass;
            System.out.printf(Locale.ROOT, "%s: busy loop of %d iterations: thread CPU median %.4f ms (least %.4f;"
                    + " harness), wall least %.4f ms (direct), %.1f %% apart%n", pass ? "ok" : "FAIL", iterations,
                    cpu[p], results.get(p).min(), wallMs, 100 * error);
        }
        double ratio = cpu[1] / cpu[0];
        boolean linear = Math.abs(ratio - 5) / 5 <= 0.20;
        ok &= linear;
        System.out.printf(Locale.ROOT, "%s: five times the iterations cost %.2f times the CPU time%n",
                linear ? "ok" : "FAIL", ratio);
        boolean cheapClock = clockMs < 0.01 * cpu[0];
        ok &= cheapClock;
        System.out.printf(Locale.ROOT, "%s: a thread CPU clock reading costs %.6f ms (%.2f %% of the shorter loop)%n",
                cheapClock ? "ok" : "FAIL", clockMs, 100 * clockMs / cpu[0]);
        // The warm-up: every point had its CPU time, and the targets stopped it.
        for (Result r : results) {
            boolean warmed = r.warmupCpuMs() >= warmupCpuMs && r.warmupCalls() >= 30
                    && r.warmupCpuMs() <= 1.5 * Math.max(warmupCpuMs, 1) + 30 * r.max();
            ok &= warmed;
            System.out.printf(Locale.ROOT, "%s: warm-up of the loop of %s iterations: %d calls, %.0f ms of thread CPU"
                    + " time (target %d ms)%n", warmed ? "ok" : "FAIL", r.args()[1], r.warmupCalls(), r.warmupCpuMs(),
                    warmupCpuMs);
        }
        // The tiny loop: enough calls for its mean, and the same cost per iteration.
        Result tiny = results.get(2);
        long tinyIterations = Long.parseLong(points.get(2)[1]);
        double perIteration = (tiny.median() - clockMs) / tinyIterations;
        double perIteration0 = cpu[0] / n;
        double apart = Math.abs(perIteration - perIteration0) / perIteration0;
        boolean adapted = tiny.measuredCpuMs() >= minCpuMs && tiny.cpuNs().length >= 30 && apart <= 0.25;
        ok &= adapted;
        System.out.printf(Locale.ROOT, "%s: tiny loop of %d iterations: %d measured calls, %.0f ms of CPU time (at"
                + " least %d), median %.4f ms (mean %.4f), %.3f ns per iteration against %.3f (%.1f %% apart)%n",
                adapted ? "ok" : "FAIL", tinyIterations, tiny.cpuNs().length, tiny.measuredCpuMs(), minCpuMs,
                tiny.median(), tiny.mean(), perIteration * 1e6, perIteration0 * 1e6, 100 * apart);
        System.out.println(ok ? "self-test passed" : "self-test FAILED");
        return ok;
    }

    private static long wallOfOneCall(long iterations) {
        Runnable call = BusyLoop.prepare(new String[] {"--n", Long.toString(iterations)});
        long t0 = System.nanoTime();
        call.run();
        return System.nanoTime() - t0;
    }

    /** A driver by the convention, for the self-test: {@code --n N} iterations of an LCG. */
    public static final class BusyLoop implements Runnable {
        private final long n;
        long state;

        private BusyLoop(long n) {
            this.n = n;
        }

        public static Runnable prepare(String[] args) {
            if (args.length != 2 || !args[0].equals("--n")) {
                throw new IllegalArgumentException("usage: --n ITERATIONS");
            }
            return new BusyLoop(Long.parseLong(args[1]));
        }

        @Override
        public void run() {
            long x = n;
            for (long i = 0; i < n; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L; // a dependent chain: no vectorising
                x ^= x >>> 29;
            }
            state = x;
        }

        @Override
        public String toString() {
            return Long.toHexString(state);
        }
    }
}
