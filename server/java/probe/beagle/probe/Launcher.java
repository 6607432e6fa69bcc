package beagle.probe;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Arrays;

/**
 * Runs a main method several times in one JVM (warm-up runs first; the decoder drops what they
 * recorded): {@code beagle.probe.Launcher ITERATIONS MAIN ARGS...}. Exits 1 when the main
 * method throws, naming the iteration.
 */
public final class Launcher {
    private Launcher() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.err.println("usage: beagle.probe.Launcher ITERATIONS MAIN-CLASS [ARGS...]");
            System.exit(2);
        }
        int iterations = Integer.parseInt(args[0]);
        Method main;
        try {
            main = Class.forName(args[1]).getMethod("main", String[].class);
        } catch (ClassNotFoundException e) {
            System.err.println("beagle: main class not found: " + args[1]);
            System.exit(3);
            return;
        } catch (NoSuchMethodException e) {
            System.err.println("beagle: " + args[1] + " has no public static void main(String[])");
            System.exit(3);
            return;
        }
        String[] rest = Arrays.copyOfRange(args, 2, args.length);
        for (int i = 0; i < iterations; i++) {
            Probe.iteration = i;
            try {
                main.invoke(null, (Object) rest.clone());
            } catch (InvocationTargetException e) {
                System.err.println("beagle: " + args[1] + ".main threw in iteration " + i + ":");
                e.getCause().printStackTrace();
                Probe.flushAll();
                System.exit(1);
            }
            Probe.flushAll();
        }
    }
}
