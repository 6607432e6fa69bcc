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
 * file, then its arguments, all separated by tabs. The warm-up cycles through the points (at least
 * WARMUP runs and one of each point, and at least WARMUP_MS long): the JIT compiles the code for
 * the mix of inputs, as a server's JIT does, and the JVM start and warm-up are paid once per batch,
 * not once per point. The measured runs then go round the points REPETITIONS times, each point's
 * records into its own events file ({@link Probe#redirect}), so that a drift in the JVM spreads
 * over all points alike.
 *
 * <p>The measured runs go in windows between timings of a reference work ({@link Windows}): a
 * window in which another process slowed the machine is measured again.
 *
 * <p>Exit codes: 1 when the main method throws (naming the run), 3 when it cannot be found.
 */
public final class Launcher {
    private static final int MOST_WARMUP_RUNS = 10_000;

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
        for (int i = 0; i < MOST_WARMUP_RUNS * points && (i < least || System.nanoTime() - start < warmupNs); i++) {
            int p = i % points;
            run(main, mainClass, arguments.get(p), "warm-up run " + (i + 1) + " (point " + (p + 1) + ")");
        }
        Probe.flushAll();
        Probe.calibrate();
        List<Windows.Run> runs = new ArrayList<>();
        for (int i = 1; i <= repetitions; i++) {
            for (int p = 0; p < points; p++) {
                runs.add(new Windows.Run(events.get(p), i, arguments.get(p), "run " + i + " (point " + (p + 1) + ")"));
            }
        }
        Windows.run(runs, (pointArgs, which) -> run(main, mainClass, pointArgs, which));
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
