package beagle.probe;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs a main method repeatedly in one JVM:
 * {@code beagle.probe.Launcher WARMUP WARMUP_MS REPETITIONS MAIN ARGS...}. Warm-up runs (at least
 * WARMUP of them, and at least WARMUP_MS long, so the JIT has compiled the hot code) record with
 * iteration 0, which the decoder drops; the measured runs record with iterations 1..REPETITIONS.
 * Exit codes: 1 when the main method throws (naming the run), 3 when it cannot be found.
 */
public final class Launcher {
    private static final int MOST_WARMUP_RUNS = 10_000;

    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 4) {
            System.err.println("usage: beagle.probe.Launcher WARMUP WARMUP_MS REPETITIONS MAIN-CLASS [ARGS...]");
            System.exit(2);
        }
        int warmup = Integer.parseInt(args[0]);
        long warmupNs = Long.parseLong(args[1]) * 1_000_000L;
        int repetitions = Integer.parseInt(args[2]);
        String mainClass = args[3];
        Method main;
        try {
            main = Class.forName(mainClass).getMethod("main", String[].class);
        } catch (ClassNotFoundException e) {
            System.err.println("beagle: main class not found: " + mainClass);
            System.exit(3);
            return;
        } catch (NoSuchMethodException e) {
            System.err.println("beagle: " + mainClass + " has no public static void main(String[])");
            System.exit(3);
            return;
        }
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
        for (int i = 1; i <= repetitions; i++) {
            Probe.iteration = i;
            run(main, mainClass, rest, "run " + i);
            Probe.flushAll();
        }
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
