package beagle.probe;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Runs a main method repeatedly in one JVM:
 * {@code beagle.probe.Launcher WARMUP WARMUP_MS REPETITIONS MAIN ARGS...}. Warm-up runs (at least
 * WARMUP of them, and at least WARMUP_MS long, so the JIT has compiled the hot code) record with
 * iteration 0, which the decoder drops; the measured runs record with iterations 1..REPETITIONS.
 *
 * <p>{@code beagle.probe.Launcher --batch POINTS WARMUP WARMUP_MS REPETITIONS MAIN} measures
 * several parameter points in one JVM. POINTS is a file with a line per point: the point's events
 * file, then its arguments, all separated by tabs. The warm-up cycles through the points in turns
 * of equal time (at least WARMUP runs and one of each point, and at least WARMUP_MS long): the JIT
 * compiles the code for the mix of inputs, as a server's JIT does, a small call's as well as a
 * large one's; the JVM start and warm-up are paid once per batch, not once per point. The measured
 * runs then go round the points REPETITIONS times, each point's records into its own events file
 * ({@link Probe#redirect}), so that a drift in the JVM spreads over all points alike.
 *
 * <p>The measured runs go in windows between timings of a reference work ({@link Windows}): a
 * window in which another process slowed the machine is measured again.
 *
 * <p>Exit codes: 1 when the main method throws (naming the run), 3 when it cannot be found.
 */
public final class Launcher {
    private static final int MOST_WARMUP_RUNS = 10_000;
    /**
     * A batch's warm-up gives every point a share of its time, not of its runs: a turn runs its
     * point for up to TURN_NS (at least once, at most MOST_RUNS_PER_TURN times). Going round the
     * points one run each, a 10 µs upload got one run per 100 ms round of the large ones, about 20
     * in the 2 s, so the code a service runs once per call (its own statements, per-call set-up) was
     * measured before the JIT had compiled it: 6 µs for a partition of one file that the warm
     * program does in well under 1 µs (issue 51, point 4: small calls).
     */
    private static final long TURN_NS = 20_000_000L;
    private static final int MOST_RUNS_PER_TURN = 1_000;
    /**
     * A point whose runs take less than LEAD_IN_BELOW_NS (in the warm-up) is run unrecorded for
     * about LEAD_IN_NS (a thousandth of the warm-up time at most; at most MOST_LEAD_INS times)
     * before each of its measured runs. Round the points, a 10 µs upload ran right after a 50 ms
     * one whose megabytes had taken the caches, and its thread CPU time was 25-50 µs where the
     * same call repeated takes 15 µs (one lead-in run: 22-47 µs; forty: 16-20 µs): its per-call
     * costs came out two to three times what the warm program, called for that point again and
     * again, spends (the yardstick, benchmarks/validate). A long run brings its own data into
     * the caches anyway.
     */
    private static final long LEAD_IN_BELOW_NS = 5_000_000L;
    private static final long LEAD_IN_NS = 2_000_000L;
    private static final int MOST_LEAD_INS = 100;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--batch")) {
            batch(args);
            return;
        }
        if (args.length < 4) {
            System.err.println("usage: beagle.probe.Launcher WARMUP WARMUP_MS REPETITIONS MAIN-CLASS [ARGS...]");
            System.exit(2);
        }
        int warmup = Integer.parseInt(args[0]);
        long warmupNs = Long.parseLong(args[1]) * 1_000_000L;
        int repetitions = Integer.parseInt(args[2]);
        String mainClass = args[3];
        Method main = mainMethod(mainClass);
        String[] rest = Arrays.copyOfRange(args, 4, args.length);
        long start = System.nanoTime();
        Probe.iteration = 0;
        for (int i = 0; i < MOST_WARMUP_RUNS && (i < warmup || System.nanoTime() - start < warmupNs); i++) {
            run(main, mainClass, rest, "warm-up run " + (i + 1));
        }
        Probe.flushAll();
        // Again, now that the JIT has compiled the probes as the program inlines them.
        Probe.calibrate();
        Probe.flushAll();
        List<Windows.Run> runs = new ArrayList<>();
        for (int i = 1; i <= repetitions; i++) {
            runs.add(new Windows.Run(null, i, rest, "run " + i));
        }
        Windows.run(runs, (arguments, which) -> run(main, mainClass, arguments, which));
    }

    private static void batch(String[] args) throws Exception {
        if (args.length != 6) {
            System.err.println("usage: beagle.probe.Launcher --batch POINTS WARMUP WARMUP_MS REPETITIONS MAIN-CLASS");
            System.exit(2);
        }
        List<String> lines = Files.readAllLines(Paths.get(args[1]), StandardCharsets.UTF_8);
        int warmup = Integer.parseInt(args[2]);
        long warmupNs = Long.parseLong(args[3]) * 1_000_000L;
        int repetitions = Integer.parseInt(args[4]);
        String mainClass = args[5];
        Method main = mainMethod(mainClass);
        List<String> events = new ArrayList<>();
        List<String[]> arguments = new ArrayList<>();
        for (String line : lines) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            events.add(fields[0]);
            arguments.add(Arrays.copyOfRange(fields, 1, fields.length));
        }
        int points = events.size();
        if (points == 0) {
            return;
        }
        long start = System.nanoTime();
        Probe.iteration = 0;
        int least = Math.max(warmup, points);
        int done = 0;
        long[] warmNs = new long[points];
        int[] warmRuns = new int[points];
        // A turn is a twentieth of each point's share of the warm-up, at most TURN_NS: with no
        // warm-up time asked for, one run per turn.
        long turnNs = Math.min(TURN_NS, warmupNs / (20L * points));
        for (int turn = 0; done < MOST_WARMUP_RUNS * points
                && (done < least || System.nanoTime() - start < warmupNs); turn++) {
            int p = turn % points;
            long turnStart = System.nanoTime();
            int k = 0;
            for (; k < MOST_RUNS_PER_TURN && (k == 0 || System.nanoTime() - turnStart < turnNs); k++) {
                done++;
                run(main, mainClass, arguments.get(p), "warm-up run " + done + " (point " + (p + 1) + ")");
            }
            warmNs[p] += System.nanoTime() - turnStart;
            warmRuns[p] += k;
        }
        Probe.flushAll();
        Probe.calibrate();
        int[] leadIns = new int[points];
        for (int p = 0; p < points; p++) {
            leadIns[p] = leadIns(warmNs[p], warmRuns[p], warmupNs);
        }
        List<Windows.Run> runs = new ArrayList<>();
        for (int i = 1; i <= repetitions; i++) {
            for (int p = 0; p < points; p++) {
                for (int k = 0; k < leadIns[p]; k++) {
                    runs.add(new Windows.Run(events.get(p), 0, arguments.get(p), "lead-in to run " + i + " (point " + (p + 1) + ")"));
                }
                runs.add(new Windows.Run(events.get(p), i, arguments.get(p), "run " + i + " (point " + (p + 1) + ")"));
            }
        }
        Windows.run(runs, (pointArgs, which) -> run(main, mainClass, pointArgs, which));
    }

    /**
     * The unrecorded runs before each measured run of a point whose warm-up took `ns` in `runs`:
     * none without a warm-up time (a run count alone asks for no more runs than those).
     */
    static int leadIns(long ns, int runs, long warmupNs) {
        long budget = Math.min(LEAD_IN_NS, warmupNs / 1000);
        if (runs == 0 || budget == 0 || ns / runs >= LEAD_IN_BELOW_NS) {
            return 0;
        }
        long each = Math.max(1, ns / runs);
        return (int) Math.max(1, Math.min(MOST_LEAD_INS, budget / each));
    }

    private static Method mainMethod(String mainClass) {
        try {
            return Class.forName(mainClass).getMethod("main", String[].class);
        } catch (ClassNotFoundException e) {
            System.err.println("beagle: main class not found: " + mainClass);
        } catch (NoSuchMethodException e) {
            System.err.println("beagle: " + mainClass + " has no public static void main(String[])");
        }
        System.exit(3);
        return null;
    }

    private static void run(Method main, String mainClass, String[] args, String which) throws Exception {
        try {
            main.invoke(null, (Object) args.clone());
        } catch (InvocationTargetException e) {
            System.err.println("beagle: " + mainClass + ".main threw in " + which + ":");
            e.getCause().printStackTrace();
            Probe.flushAll();
            System.exit(1);
        }
    }
}
