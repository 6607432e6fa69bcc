package beagle.calibrate;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code beagle calibrate}'s benchmark suite, run in the JVM being calibrated. It writes lines to
 * stdout that the Rust side reads as they come: {@code steps N} first, {@code progress I LABEL}
 * after each step, then results ({@code jvm}, {@code clock}, {@code instr}, {@code point},
 * {@code note}), tab-separated. Arguments: {@code --quick} (fewer, shorter samples: tests).
 */
public final class Suite {
    private Suite() {}

    private static int done;

    private static void progress(String label) {
        done++;
        System.out.println("progress\t" + done + "\t" + label);
        System.out.flush();
    }

    public static void main(String[] args) throws Exception {
        boolean quick = List.of(args).contains("--quick");
        String info = System.getProperty("java.vm.info", "");
        boolean interpreterOnly = info.contains("interpreted mode");
        List<Instructions.Row> rows = Instructions.rows();
        List<Methods.Entry> entries = Methods.entries();
        int points = 0;
        for (Methods.Entry e : entries) {
            points += e.sizes().length;
        }
        // Methods: the median of 9 samples of 20 ms (they allocate: a sample long enough to hold
        // several young collections costs each its share, where 4 ms samples were with or without
        // one and spread 40 % between runs); 5 of 1 ms with --quick.
        Timer methods = quick ? new Timer(5, 1_000_000, 20_000_000) : new Timer(9, 20_000_000, 100_000_000);
        // Instructions: the median of 11 samples of 10 ms, a benchmark's and its baseline's
        // interleaved; 5 of 1 ms with --quick.
        Timer insnJit = quick ? new Timer(5, 1_000_000, 20_000_000) : new Timer(11, 10_000_000, 50_000_000);
        Timer insnInterp = quick ? new Timer(5, 1_000_000, 2_000_000) : new Timer(11, 10_000_000, 10_000_000);
        int steps = 1 + (rows.size() + insnInterp.samples) + (interpreterOnly ? 0 : rows.size() + insnJit.samples)
                + points + methods.samples;
        System.out.println("jvm\t" + System.getProperty("java.vm.name") + "\t"
                + System.getProperty("java.runtime.version") + "\t" + info);
        System.out.println("steps\t" + steps);

        System.out.println("clock\t" + clockResolution());
        progress("clock");

        List<String> notes = new ArrayList<>();
        double[] interp = Instructions.measure("Interp", insnInterp, 20, () -> progress("interpreted"), notes);
        double[] jit = interp;
        if (interpreterOnly) {
            notes.add("the JVM runs interpreted only (-Xint): the compiled timings are the interpreter's");
        } else {
            // 15000 calls: past C2's thresholds; the suite's JVM compiles in the foreground (-Xbatch).
            jit = Instructions.measure("Jit", insnJit, 15_000, () -> progress("compiled"), notes);
        }
        for (int c = 0; c < OpcodeClasses.COUNT; c++) {
            System.out.println("instr\tjit\t" + OpcodeClasses.NAMES[c] + "\t" + jit[c]);
            System.out.println("instr\tinterpreted\t" + OpcodeClasses.NAMES[c] + "\t" + interp[c]);
        }

        // Every point warmed up first, then sampled in rounds (one sample of each per round): a
        // point's samples spread over the whole phase, so its median is across the phases that a
        // JDK method's compiled code goes through (MessageDigest.getInstance took 30 ns per call
        // in some 20 ms batches and 400 in others of one JVM), not of whichever it was in.
        List<Timer.Op> ops = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Integer> reps = new ArrayList<>();
        for (Methods.Entry e : entries) {
            for (int size : e.sizes()) {
                Timer.Op op = e.op().apply(size);
                ops.add(op);
                names.add(e.kind() + "\t" + e.key() + "\t" + size);
                reps.add(methods.repsFor(op, 1000));
                progress(e.key().replaceFirst("\\(.*", "") + " " + size);
            }
        }
        double[][] samples = new double[ops.size()][methods.samples];
        for (int round = 0; round < methods.samples; round++) {
            for (int i = 0; i < ops.size(); i++) {
                samples[i][round] = (double) Timer.once(ops.get(i), reps.get(i)) / reps.get(i);
            }
            progress("round " + (round + 1) + " of " + methods.samples);
        }
        for (int i = 0; i < ops.size(); i++) {
            System.out.println("point\t" + names.get(i) + "\t" + Timer.median(samples[i]));
        }
        for (String n : notes) {
            System.out.println("note\t" + n);
        }
        System.out.println("sink\t" + (Timer.sink & 1));
    }

    /** The clock's resolution: the median of 1001 smallest nonzero steps of {@code System.nanoTime}. */
    static double clockResolution() {
        double[] steps = new double[1001];
        for (int i = 0; i < steps.length; i++) {
            long t0 = System.nanoTime();
            long t1;
            do {
                t1 = System.nanoTime();
            } while (t1 == t0);
            steps[i] = t1 - t0;
        }
        return Timer.median(steps);
    }
}
