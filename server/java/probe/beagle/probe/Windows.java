package beagle.probe;

import java.nio.channels.FileChannel;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the launcher's measured runs in windows, each between two timings of the {@link Reference}
 * work, and measures a window again when either timing says the machine was disturbed: slower
 * than this JVM's usual by more than {@code beagle.referenceTolerance} (default 0.5: the reference's own scatter
 * on a quiet 2-core machine reaches 1.4 times its usual at the 99th percentile). Another
 * process that takes the caches or the core's other hardware thread for a while (a browser, a
 * build) bends the runs it overlaps, and runs of some points but not others bend a law's form;
 * its window's records are dropped ({@link Probe#rollback}) and the runs made again.
 *
 * <p>"Usual" is the lower quartile of the last 64 timings: a burst does not move it, a load that
 * stays (a CPU hog for the rest of the run) does within a few dozen windows, and the runs are
 * then measured at that level, all points alike. A window is measured at most three times; beyond
 * that, or once as many windows were measured again as there are windows, it is kept, and counted
 * as such. What each events file met is written into it at the end (a DISTURBED record), so that
 * the analysis says which runs were disturbed and what was measured again.
 *
 * <p>A window lasts at least forty times the reference's usual time (a timing is two runs of it and
 * a pass over its table: the timings cost well under a tenth) and ends after the run that reaches
 * that. On with {@code -Dbeagle.reference=true} (a launch's `jvm_args`); never in counting runs
 * (counts do not depend on the machine's speed) or without an events file.
 *
 * <p>Off by default: measured, it flags the program's own work as well as other processes'. The
 * README's main job, measuring alone, had windows up to 2.75 times usual after its own
 * compressions (its garbage collection and allocation evict the reference's table as another
 * process would) and measured them again, dropping runs whose slowness was the program's own
 * (benchmarks/busy/README.md).
 */
final class Windows {
    /** One measured run: its events file (null: the one in use), its iteration, its arguments. */
    static final class Run {
        final String events;
        final int iteration;
        final String[] args;
        final String label;

        Run(String events, int iteration, String[] args, String label) {
            this.events = events;
            this.iteration = iteration;
            this.args = args;
            this.label = label;
        }
    }

    /** Runs the program once. */
    interface Program {
        void run(String[] args, String label) throws Exception;
    }

    static final boolean ON = "true".equals(System.getProperty("beagle.reference")) && !Counts.ON;
    private static final double TOLERANCE = Double.parseDouble(System.getProperty("beagle.referenceTolerance", "0.5"));
    private static final int ATTEMPTS = 3;
    private static final int HISTORY = 64;

    private final long[] history = new long[HISTORY];
    private int timed;
    private final Map<FileChannel, long[]> met = new LinkedHashMap<>();
    private int worstPercent;

    /** Runs every run in order, in windows, measuring disturbed windows again. */
    static void run(List<Run> runs, Program program) throws Exception {
        if (!ON) {
            for (Run r : runs) {
                start(r, null);
                program.run(r.args, r.label);
                Probe.flushAll();
            }
            return;
        }
        new Windows().measure(runs, program);
    }

    /** Sends the run's records where they belong, and marks where that file ends now. */
    private static void start(Run r, Map<FileChannel, Long> marks) {
        if (r.events != null) {
            Probe.redirect(r.events);
        }
        if (marks != null) {
            Probe.mark(marks);
        }
        Probe.iteration = r.iteration;
    }

    private void measure(List<Run> runs, Program program) throws Exception {
        // The reference compiled as the program's code is, then its usual time on this machine.
        for (int i = 0; i < 200; i++) {
            Reference.time();
        }
        for (int i = 0; i < 16; i++) {
            remember(Reference.time());
        }
        long window = 40 * usual();
        long before = Reference.time();
        int budget = runs.size();
        int attempt = 1;
        for (int first = 0; first < runs.size(); ) {
            Map<FileChannel, Long> marks = new HashMap<>();
            long began = System.nanoTime();
            int end = first;
            do {
                Run r = runs.get(end);
                start(r, marks);
                program.run(r.args, r.label);
                end++;
            } while (end < runs.size() && System.nanoTime() - began < window);
            long after = Reference.time();
            long usual = usual();
            long worst = Math.max(before, after);
            boolean disturbed = worst > usual * (1 + TOLERANCE);
            remember(after);
            if (disturbed) {
                worstPercent = Math.max(worstPercent, (int) Math.min(10_000, 100 * (worst - usual) / usual));
            }
            if (disturbed && !marks.isEmpty() && attempt < ATTEMPTS && budget > 0) {
                Probe.rollback(marks);
                count(marks, 0);
                budget--;
                attempt++;
                // A burst may last a while: let it pass, then time the machine afresh.
                Thread.sleep(5L * attempt);
                before = Reference.time();
                continue;
            }
            if (disturbed) {
                count(marks, 1);
            }
            attempt = 1;
            before = after;
            first = end;
        }
        for (Map.Entry<FileChannel, long[]> m : met.entrySet()) {
            Probe.disturbed(m.getKey(), worstPercent, m.getValue()[0], m.getValue()[1]);
        }
    }

    /** Counts a window's files as measured again (0) or kept disturbed (1). */
    private void count(Map<FileChannel, Long> marks, int which) {
        for (FileChannel f : marks.keySet()) {
            met.computeIfAbsent(f, k -> new long[2])[which]++;
        }
    }

    private void remember(long ns) {
        history[timed % HISTORY] = ns;
        timed++;
    }

    /** The lower quartile of the timings remembered. */
    private long usual() {
        int n = Math.min(timed, HISTORY);
        long[] sorted = java.util.Arrays.copyOf(history, n);
        java.util.Arrays.sort(sorted);
        return Math.max(1, sorted[n / 4]);
    }
}
