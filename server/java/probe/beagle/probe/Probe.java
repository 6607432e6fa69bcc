package beagle.probe;

import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Beagle's probes. Instrumented code calls only these static methods; the record format is in
 * server/java/README.md. Every thread records into its own direct buffer (no allocation per
 * probe); a full buffer is appended to the events file under one lock, so a thread's records keep
 * their order. A record is written under its thread's own monitor (uncontended: a few ns), so
 * that {@link #flushAll} can safely write the buffers of threads that are still running (pool
 * threads idle between iterations, daemon threads at shutdown).
 *
 * <p>Thread CPU time costs a system call (clock_gettime of the thread's CPU clock, through
 * ThreadMXBean: no cheaper source exists in Java 17 without native code), which dominates a CPU
 * section's cost. So a section that starts within {@code beagle.cpuReuseNs} (default 2000) wall
 * nanoseconds of the thread's last CPU clock reading (back-to-back sections, a section in a loop)
 * takes that reading plus the wall time since, instead of a new one: exact unless the thread was
 * descheduled in that short gap, and then too small by at most the gap. 0 turns it off.
 *
 * <p>A demand section that runs many times in one execution (an action in a loop of 100,000
 * iterations) is not recorded per run: the thread adds up its count and time per section, and
 * writes one DEMAND_TOTAL when the execution exits (or earlier, when another execution on the
 * thread runs the same section: recursion). The analysis takes the demands of one execution as
 * their mean anyway; the events file and its decoding then grow with executions, not iterations.
 * {@code -Dbeagle.perIteration=true} writes a DEMAND per run instead.
 *
 * <p>A demand is reported net of the probes' own cost ({@link Calibration}): each JVM calibrates
 * what an empty section of each kind reports and what each probe adds to a measurement around it,
 * at start-up and again when the launcher's warm-up ends. Every thread adds up the cost of the
 * probes it ran ({@code probePs}); a section (or a service execution, when its CPU time is
 * measured) subtracts its own empty-section bias and the cost of every probe that ran inside it
 * (nested sections, executions, parameter captures, loop and branch counters, buffer writes). What
 * was subtracted is written beside each total (OVERHEAD), the calibration itself as CALIBRATION
 * records. {@code -Dbeagle.calibrate=false} turns the subtraction off (raw clock differences).
 */
public final class Probe {
    static final int ENTER = 1, PARAM = 2, EXIT = 3, DEMAND = 4, LOOP = 5, BRANCH = 6, DEMAND_TOTAL = 7,
            CALIBRATION = 8, OVERHEAD = 9, DISTURBED = 11; // COUNT = 10: Counts.java
    static final int VALUE = 1, BYTESIZE = 2, NUMBER_OF_ELEMENTS = 3, INNER_BYTESIZE = 4;
    /** A collection's BYTESIZE: the sum over its elements (an input only where the model says so). */
    static final int ELEMENTS_BYTESIZE = 5;
    static final int RECORD = 32;
    static final int BUFFER = RECORD * 2048;

    /**
     * Set by the launcher before each run of the main method (0: warm-up, dropped by the decoder).
     * Without the launcher (a launch `command`), the environment's BEAGLE_ITERATION says it.
     */
    public static volatile int iteration = initialIteration();

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final AtomicLong EXECUTIONS = new AtomicLong();
    /** Execution ids a thread takes at once: one shared counter increment per block, not per entry. */
    static final int ID_BLOCK = 1024;
    static final long CPU_REUSE_NS = Long.getLong("beagle.cpuReuseNs", 2000L);
    static final boolean PER_ITERATION = Boolean.getBoolean("beagle.perIteration");
    /**
     * Whether an EXIT record carries the time of its execution, entry to exit (callees on the
     * thread included), net of the probes: thread CPU time for an outermost execution (two clock
     * readings per call from outside), the wall clock for a nested one (whose entry and exit read
     * it anyway; a nested execution may be far shorter than a CPU clock reading's drift). On
     * unless {@code -Dbeagle.serviceCpu=false} or BEAGLE_SERVICE_CPU=false.
     */
    static final boolean SERVICE_CPU = !"false".equals(System.getProperty("beagle.serviceCpu"))
            && !"false".equals(System.getenv("BEAGLE_SERVICE_CPU"));
    /** Whether the probes calibrate and subtract their own cost ({@code -Dbeagle.calibrate=false}: not). */
    static final boolean CALIBRATE = !"false".equals(System.getProperty("beagle.calibrate"));
    /** The costs subtracted now: the last calibration's ({@link Calibration#NONE} before the first). */
    static volatile Calibration costs = Calibration.NONE;
    private static final List<State> STATES = new ArrayList<>();
    /**
     * Where records go: the events file, or another one a launcher measuring several points in
     * one JVM switched to ({@link #redirect}). Null: nowhere (no events file named).
     */
    private static volatile FileChannel OUT = open(System.getProperty("beagle.events", System.getenv("BEAGLE_EVENTS")));
    /** Whether flushAll syncs the file: not for /dev/null and pipes (benchmarks), which cannot. */
    private static volatile boolean SYNC = OUT != null && isRegularFile(System.getProperty("beagle.events", System.getenv("BEAGLE_EVENTS")));
    /** The files {@link #redirect} opened, by path: each is opened once and gets the calibration once. */
    private static final java.util.Map<String, FileChannel> REDIRECTED = new java.util.HashMap<>();

    private static final ThreadLocal<State> STATE = ThreadLocal.withInitial(() -> {
        State s = new State();
        synchronized (STATES) {
            STATES.add(s);
        }
        return s;
    });

    /** One thread's recording state: its execution stack, pending call and buffer. */
    static final class State {
        final Thread owner = Thread.currentThread();
        /** The next execution id of this thread's block, and the block's end. */
        long nextId, endId;
        /** The last thread CPU clock reading and the wall clock right after it, if any. */
        long lastCpu, lastWall;
        boolean hasCpu;
        long[] executions = new long[64];
        long[] entered = new long[64];
        long[] enteredCpu = new long[64];
        /**
         * The thread's last CPU clock reading before each execution on the stack was entered, and
         * the wall clock then (-1: none): a nested execution that took long is corrected by it.
         */
        long[] enteredRefCpu = new long[64], enteredRefWall = new long[64];
        /** probePs when each execution on the stack was entered. */
        long[] enteredProbe = new long[64];
        /**
         * The cost of every probe this thread ran so far, in picoseconds: what they added to any
         * measurement around them (calibrated costs, plus buffer writes as timed).
         */
        long probePs;
        /** Open timed sections, innermost last: probePs at their start, and how each is timed. */
        long[] sectionProbe = new long[16];
        byte[] sectionMode = new byte[16];
        /** The same reference reading before each open section started. */
        long[] sectionRefCpu = new long[16], sectionRefWall = new long[16];
        int sections;
        /** Per CPU section: whether its last run was short ({@link #SHORT_NS}): timed by the wall clock. */
        boolean[] shortRuns = new boolean[64];
        /** Short sections started since the thread CPU clock was last read. */
        int shortSinceCpu;
        /** The raw clock difference of the last section or execution, in ps (the calibration reads it). */
        long lastRawPs;
        /** While calibrating: records are dropped (the buffer goes back to discardMark). */
        boolean discarding;
        int discardMark;
        int depth;
        int pendingCall = -1;
        long pendingCaller;
        /**
         * Per demand section: the execution its totals belong to (0: none), count, net time and
         * the probe cost subtracted from it (ps).
         */
        long[] totalOwner = new long[64], totalCount = new long[64], totalPs = new long[64], totalSubPs = new long[64];
        /** Sections with totals, as a stack; touchedFrom[d]: where depth d's begin. */
        int[] touched = new int[64];
        int touchedTop;
        int[] touchedFrom = new int[64];
        final ByteBuffer buffer = ByteBuffer.allocateDirect(BUFFER).order(ByteOrder.LITTLE_ENDIAN);

        long current() {
            return depth == 0 ? 0 : executions[depth - 1];
        }

        synchronized void record(int type, int section, long execution, long a, long b) {
            if (buffer.remaining() < RECORD) {
                if (discarding) {
                    buffer.position(discardMark);
                } else {
                    // The write lands inside whatever this thread is timing: it is probe cost too.
                    long t = System.nanoTime();
                    flush();
                    probePs += (System.nanoTime() - t) * 1000;
                }
            }
            buffer.putInt(type).putInt(section).putLong(execution).putLong(a).putLong(b);
        }

        /** Adds one run of a demand section to the current execution's totals. */
        void addDemand(int section, long netPs, long subPs) {
            long e = current();
            if (section >= totalOwner.length) {
                int n = Math.max(section + 1, totalOwner.length * 2);
                totalOwner = java.util.Arrays.copyOf(totalOwner, n);
                totalCount = java.util.Arrays.copyOf(totalCount, n);
                totalPs = java.util.Arrays.copyOf(totalPs, n);
                totalSubPs = java.util.Arrays.copyOf(totalSubPs, n);
            }
            if (totalOwner[section] != e) {
                if (totalCount[section] > 0) {
                    writeTotal(section);
                }
                totalOwner[section] = e;
                if (touchedTop == touched.length) {
                    touched = java.util.Arrays.copyOf(touched, touchedTop * 2);
                }
                touched[touchedTop++] = section;
            }
            totalCount[section]++;
            totalPs[section] += netPs;
            totalSubPs[section] += subPs;
        }

        void writeTotal(int section) {
            // The net total of a section cheaper than the calibration can tell may come out below 0.
            record(OVERHEAD, section, totalOwner[section], psToNs(totalSubPs[section]), totalCount[section]);
            record(DEMAND_TOTAL, section, totalOwner[section], Math.max(0, psToNs(totalPs[section])), totalCount[section]);
            if (Counts.ON) {
                Counts.write(this, section, totalOwner[section]);
            }
            totalCount[section] = 0;
            totalPs[section] = 0;
            totalSubPs[section] = 0;
            totalOwner[section] = 0;
        }

        /** Writes the totals of the sections touched at depth `d` and above (their executions exit). */
        void writeTotalsFrom(int d) {
            int from = touchedFrom[d];
            for (int i = touchedTop - 1; i >= from; i--) {
                int section = touched[i];
                if (totalCount[section] > 0) {
                    writeTotal(section);
                }
            }
            touchedTop = Math.min(touchedTop, from);
        }

        long newId() {
            if (nextId == endId) {
                nextId = EXECUTIONS.getAndAdd(ID_BLOCK) + 1;
                endId = nextId + ID_BLOCK;
            }
            return nextId++;
        }

        /** Reads the thread CPU clock, remembering when. */
        long cpuNow() {
            shortSinceCpu = 0;
            long cpu = THREADS.getCurrentThreadCpuTime();
            lastCpu = cpu;
            lastWall = System.nanoTime();
            hasCpu = true;
            return cpu;
        }

        /** Opens a timed section. */
        void pushSection(byte mode) {
            if (sections == sectionProbe.length) {
                sectionProbe = java.util.Arrays.copyOf(sectionProbe, sections * 2);
                sectionMode = java.util.Arrays.copyOf(sectionMode, sections * 2);
                sectionRefCpu = java.util.Arrays.copyOf(sectionRefCpu, sections * 2);
                sectionRefWall = java.util.Arrays.copyOf(sectionRefWall, sections * 2);
            }
            sectionMode[sections] = mode;
            sectionRefCpu[sections] = hasCpu ? lastCpu : -1;
            sectionRefWall[sections] = lastWall;
            sectionProbe[sections++] = probePs;
        }

        boolean isShort(int section) {
            return section >= 0 && section < shortRuns.length && shortRuns[section];
        }

        void setShort(int section, boolean value) {
            if (section < 0) {
                return;
            }
            if (section >= shortRuns.length) {
                shortRuns = java.util.Arrays.copyOf(shortRuns, Math.max(section + 1, shortRuns.length * 2));
            }
            shortRuns[section] = value;
        }

        synchronized void flush() {
            buffer.flip();
            FileChannel out = OUT;
            if (out != null) {
                synchronized (out) {
                    try {
                        while (buffer.hasRemaining()) {
                            out.write(buffer);
                        }
                    } catch (IOException e) {
                        System.err.println("beagle probe: cannot write events: " + e);
                    }
                }
            }
            buffer.clear();
        }
    }

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(Probe::flushAll, "beagle-probe-flush"));
        calibrate();
    }

    private Probe() {}

    static long psToNs(long ps) {
        return Math.round(ps / 1000.0);
    }

    /**
     * Measures the probes' own cost on this thread and subtracts it from then on (see {@link
     * Calibration}); writes the calibration as CALIBRATION records. Called at start-up and by the
     * launcher when its warm-up ends (the JIT has compiled the probes as the program inlines
     * them); a thread inside a section or execution does not calibrate.
     */
    public static void calibrate() {
        if (!CALIBRATE || OUT == null) {
            return;
        }
        State s = STATE.get();
        if (s.depth != 0 || s.sections != 0) {
            return;
        }
        Calibration c = Calibration.measure(s);
        costs = c;
        c.write(s);
    }

    private static int initialIteration() {
        try {
            String v = System.getenv("BEAGLE_ITERATION");
            return v == null ? 1 : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static boolean isRegularFile(String path) {
        return path != null && Files.isRegularFile(Paths.get(path));
    }

    /**
     * Sends the records from now on to the events file at `path` (created if missing, appended
     * to): a launcher measuring several parameter points in one JVM gives each point its own
     * file. Every thread's buffered records go to the previous file first. A file opened for the
     * first time gets the calibration in force, so that each point's file carries its own.
     */
    public static void redirect(String path) {
        flushAll();
        boolean first;
        synchronized (REDIRECTED) {
            FileChannel channel = REDIRECTED.get(path);
            first = channel == null;
            if (first) {
                channel = open(path);
                if (channel == null) {
                    return;
                }
                REDIRECTED.put(path, channel);
            }
            OUT = channel;
            SYNC = isRegularFile(path);
        }
        if (first && CALIBRATE && costs != Calibration.NONE) {
            State s = STATE.get();
            if (s.depth == 0 && s.sections == 0) {
                costs.write(s);
                flushAll();
            }
        }
    }

    private static FileChannel open(String path) {
        if (path == null) {
            return null;
        }
        try {
            return FileChannel.open(Paths.get(path), StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            System.err.println("beagle probe: cannot open " + path + ": " + e);
            return null;
        }
    }

    /**
     * Writes every thread's buffered records (the launcher after each run; at shutdown), and
     * forgets the threads that have ended (a server making a thread per request would otherwise
     * keep a buffer per thread it ever had).
     */
    public static void flushAll() {
        if (Counts.ON) {
            Counts.saveKeys();
        }
        synchronized (STATES) {
            for (java.util.Iterator<State> i = STATES.iterator(); i.hasNext(); ) {
                State s = i.next();
                synchronized (s) {
                    if (s.buffer.position() > 0) {
                        s.flush();
                    }
                }
                if (!s.owner.isAlive()) {
                    i.remove();
                }
            }
        }
        FileChannel out = OUT;
        if (SYNC && out != null) {
            try {
                out.force(false);
            } catch (IOException e) {
                System.err.println("beagle probe: cannot sync events: " + e);
            }
        }
    }

    /**
     * Remembers where the events file that records go to now ends, everything buffered written
     * first, unless {@code marks} has it already: {@link #rollback} returns the file there. Whether
     * there is such a file.
     */
    static boolean mark(java.util.Map<FileChannel, Long> marks) {
        flushAll();
        FileChannel out = OUT;
        if (out == null) {
            return false;
        }
        if (!marks.containsKey(out)) {
            try {
                marks.put(out, out.size());
            } catch (IOException e) {
                System.err.println("beagle probe: cannot read the size of the events file: " + e);
                return false;
            }
        }
        return true;
    }

    /**
     * Drops every record written since {@link #mark}: the launcher measures a disturbed window
     * again ({@link Windows}). The files are opened for appending, so what is written next follows
     * the mark.
     */
    static void rollback(java.util.Map<FileChannel, Long> marks) {
        flushAll();
        for (java.util.Map.Entry<FileChannel, Long> m : marks.entrySet()) {
            synchronized (m.getKey()) {
                try {
                    m.getKey().truncate(m.getValue());
                } catch (IOException e) {
                    System.err.println("beagle probe: cannot drop a disturbed window's records: " + e);
                }
            }
        }
    }

    /**
     * Writes into {@code out} what the launcher's windows met there: a DISTURBED record (section:
     * the reference's worst slowdown in percent; a: windows measured again; b: windows kept
     * although disturbed, when measuring again ran out).
     */
    static void disturbed(FileChannel out, int worstPercent, long again, long kept) {
        State s = STATE.get();
        synchronized (REDIRECTED) {
            FileChannel previous = OUT;
            flushAll();
            OUT = out;
            s.record(DISTURBED, worstPercent, 0, again, kept);
            flushAll();
            OUT = previous;
        }
    }

    // --- service executions -------------------------------------------------------------------

    /**
     * The service section of a body that several components inherit, by the receiving object's
     * class ({@link Receivers}): the argument of {@link #enter} at such a body's entry.
     */
    public static int pick(Object receiver, int table) {
        return Receivers.pick(receiver, table);
    }

    /** Entry of a SEFF's method: a new execution, nested in the thread's current one. */
    public static long enter(int service) {
        State s = STATE.get();
        long e = s.newId();
        long caller = s.current();
        int call = s.pendingCall;
        if (call >= 0 && s.pendingCaller != caller) {
            call = -1; // set by another execution: not this call's
        }
        s.pendingCall = -1;
        if (s.depth == s.executions.length) {
            s.executions = java.util.Arrays.copyOf(s.executions, s.depth * 2);
            s.entered = java.util.Arrays.copyOf(s.entered, s.depth * 2);
            s.enteredCpu = java.util.Arrays.copyOf(s.enteredCpu, s.depth * 2);
            s.enteredRefCpu = java.util.Arrays.copyOf(s.enteredRefCpu, s.depth * 2);
            s.enteredRefWall = java.util.Arrays.copyOf(s.enteredRefWall, s.depth * 2);
            s.enteredProbe = java.util.Arrays.copyOf(s.enteredProbe, s.depth * 2);
            s.touchedFrom = java.util.Arrays.copyOf(s.touchedFrom, s.depth * 2);
        }
        s.record(ENTER, service, e, caller, ((long) call << 32) | (iteration & 0xffffffffL));
        s.touchedFrom[s.depth] = s.touchedTop;
        s.executions[s.depth] = e;
        // -1: a nested execution, timed by the wall clock.
        s.enteredCpu[s.depth] = SERVICE_CPU && s.depth == 0 ? s.cpuNow() : -1;
        s.enteredRefCpu[s.depth] = s.hasCpu ? s.lastCpu : -1;
        s.enteredRefWall[s.depth] = s.lastWall;
        s.enteredProbe[s.depth] = s.probePs;
        s.entered[s.depth++] = System.nanoTime();
        return e;
    }

    /** Exit of the execution `e` (in a finally block: also on exceptions). */
    public static void exit(long e) {
        long now = System.nanoTime();
        State s = STATE.get();
        long cpu = SERVICE_CPU && s.depth == 1 ? s.cpuNow() : 0;
        // Normally e is on top; after an unbalanced exit (cannot happen with try/finally) unwind to it.
        for (int i = s.depth - 1; i >= 0; i--) {
            if (s.executions[i] == e) {
                Calibration c = costs;
                long nestedPs = s.probePs - s.enteredProbe[i];
                s.writeTotalsFrom(i);
                s.depth = i;
                long cpuNs = 0;
                if (SERVICE_CPU) {
                    boolean outermost = s.enteredCpu[i] >= 0 && i == 0;
                    long rawPs = (outermost ? cpu - s.enteredCpu[i] : wallRunNs(s, now, now - s.entered[i], s.enteredRefCpu[i], s.enteredRefWall[i])) * 1000;
                    s.lastRawPs = rawPs;
                    long subPs = nestedPs + (outermost ? c.serviceBias : c.nestedServiceBias);
                    // Section -1: the execution itself (its service is in its ENTER).
                    s.record(OVERHEAD, -1, e, psToNs(subPs), 1);
                    // At least 1 when measured (0: not measured).
                    cpuNs = Math.max(1, psToNs(rawPs - subPs));
                }
                // b: the execution's thread CPU time, net of the probes, entry to exit.
                s.record(EXIT, 0, e, now - s.entered[i], cpuNs);
                s.probePs += c.serviceCost;
                return;
            }
        }
    }

    /** The next SEFF entry on this thread, from the current execution, is made by external call `call`. */
    public static void call(int call) {
        State s = STATE.get();
        s.probePs += costs.callCost;
        s.pendingCall = call;
        s.pendingCaller = s.current();
    }

    // --- parameter characterisations ------------------------------------------------------------

    public static void param(long e, int slot, long v) {
        State s = STATE.get();
        s.record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits((double) v));
        s.probePs += costs.paramCost;
    }

    public static void param(long e, int slot, double v) {
        State s = STATE.get();
        s.record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits(v));
        s.probePs += costs.paramCost;
    }

    public static void param(long e, int slot, boolean v) {
        param(e, slot, v ? 1L : 0L);
    }

    public static void param(long e, int slot, char v) {
        param(e, slot, (long) v);
    }

    public static void param(long e, int slot, Object v) {
        if (v == null) {
            return;
        }
        // An object's characterisation may walk it (a String's UTF-8 length, a collection's
        // elements): its cost grows with the object, so it is timed, not calibrated.
        long t = System.nanoTime();
        State s = STATE.get();
        characterise(s, e, slot, v);
        // A model's composite parameter taken as this one object: its members, by name.
        String[] members = Members.names(slot);
        if (members != null) {
            int[] slots = Members.slots(slot);
            for (int i = 0; i < members.length; i++) {
                Object m = Members.member(v, members[i]);
                if (m != null) {
                    characterise(s, e, slots[i], m);
                }
            }
        }
        s.probePs += Math.max(costs.paramCost, (System.nanoTime() - t) * 1000);
    }

    private static void characterise(State s, long e, int slot, Object v) {
        if (v instanceof Number) {
            s.record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits(((Number) v).doubleValue()));
        } else if (v instanceof Boolean) {
            s.record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits(((Boolean) v) ? 1 : 0));
        } else if (v instanceof Character) {
            s.record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits((Character) v));
        } else {
            double bytes = byteSize(v);
            if (bytes >= 0) {
                s.record(PARAM, slot, e, BYTESIZE, Double.doubleToRawLongBits(bytes));
                return;
            }
            Iterable<?> elements = null;
            double n = -1;
            if (v instanceof Collection) {
                n = ((Collection<?>) v).size();
                elements = (Collection<?>) v;
            } else if (v instanceof Map) {
                n = ((Map<?, ?>) v).size();
                elements = ((Map<?, ?>) v).values();
            } else if (v instanceof Object[]) {
                // Arrays of references (byte[][], String[], File[]) have elements that may have a
                // BYTESIZE, like a collection's; arrays of primitives (int[]) have none, so they
                // are not walked (boxing every element of a large int[] for nothing).
                n = ((Object[]) v).length;
                elements = java.util.Arrays.asList((Object[]) v);
            } else if (v.getClass().isArray()) {
                n = Array.getLength(v);
            }
            if (n < 0) {
                return;
            }
            s.record(PARAM, slot, e, NUMBER_OF_ELEMENTS, Double.doubleToRawLongBits(n));
            if (elements != null) {
                double sum = 0;
                for (Object x : elements) {
                    double b = x == null ? -1 : byteSize(x);
                    if (b < 0) {
                        return;
                    }
                    sum += b;
                }
                if (n > 0) {
                    s.record(PARAM, slot, e, INNER_BYTESIZE, Double.doubleToRawLongBits(sum / n));
                }
                s.record(PARAM, slot, e, ELEMENTS_BYTESIZE, Double.doubleToRawLongBits(sum));
            }
        }
    }

    /** BYTESIZE where it can be known, else -1. */
    static double byteSize(Object v) {
        if (v instanceof byte[]) {
            return ((byte[]) v).length;
        }
        if (v instanceof String) {
            return ((String) v).getBytes(StandardCharsets.UTF_8).length;
        }
        if (v instanceof ByteBuffer) {
            return ((ByteBuffer) v).remaining();
        }
        if (v instanceof File) {
            return ((File) v).length();
        }
        if (v instanceof Path) {
            try {
                return Files.size((Path) v);
            } catch (IOException e) {
                return -1;
            }
        }
        if (v instanceof Collection || v instanceof Map || v.getClass().isArray()) {
            return -1;
        }
        // A user object: its byte-carrying fields (an Item's byte[] content).
        return Members.byteSize(v);
    }

    // --- timed sections, loops, branches ------------------------------------------------------------

    /** How an open section is timed. */
    static final byte CPU_FRESH = 0, CPU_REUSED = 1, SHORT = 2, WALL = 3;
    /**
     * A CPU section whose last run took less than this (ns) is timed by the wall clock
     * ({@code -Dbeagle.shortSectionNs}, default 5000; 0: never). The thread CPU clock costs a
     * system call whose cost drifts with the machine's load by tens of ns between calibrations,
     * more than a sub-microsecond section's own cost; {@code System.nanoTime} costs about 20 ns
     * and drifts by a few. A short section is rarely descheduled (a time slice is milliseconds),
     * and a run that was is an outlier the analysis removes, and makes the next run a CPU-timed one.
     */
    static final long SHORT_NS = Long.getLong("beagle.shortSectionNs", 5_000L);

    /** Starts a CPU demand section (timed by the thread CPU clock, or by the wall clock when short). */
    public static long startCpu(int section) {
        if (Counts.ON) {
            Counts.open();
        }
        State s = STATE.get();
        if (s.isShort(section)) {
            // A recent CPU reading tells, should this run take long, how much of it the thread
            // was descheduled (stopCpu). Read before the section starts, by sections outside any
            // other (a nested one has its outer section's); its cost is part of the calibrated
            // shortCost, an average over runs.
            if (s.sections == 0 && ++s.shortSinceCpu >= SHORT_CPU_EVERY) {
                s.cpuNow();
                s.pushSection(SHORT);
                return s.lastWall;
            }
            s.pushSection(SHORT);
            return System.nanoTime();
        }
        return startCpuClock(s);
    }

    /** How often a short section reads the thread CPU clock before it starts (every n-th run). */
    static final int SHORT_CPU_EVERY = 32;

    /** Starts a section timed by the thread CPU clock, whatever its length. */
    public static long startCpu() {
        if (Counts.ON) {
            Counts.open();
        }
        return startCpuClock(STATE.get());
    }

    private static long startCpuClock(State s) {
        if (s.hasCpu) {
            long since = System.nanoTime() - s.lastWall;
            if (since >= 0 && since < CPU_REUSE_NS) {
                s.pushSection(CPU_REUSED);
                return s.lastCpu + since;
            }
        }
        long t = s.cpuNow();
        s.pushSection(CPU_FRESH);
        return t;
    }

    public static void stopCpu(int section, long start) {
        State s = STATE.get();
        if (Counts.ON) {
            // The calibration's empty sections (section 0, records discarded) count nothing.
            Counts.close(s.discarding ? -1 : section);
        }
        byte mode = s.sections > 0 ? s.sectionMode[s.sections - 1] : CPU_FRESH;
        long rawNs = mode == SHORT ? shortRunNs(s, start) : s.cpuNow() - start;
        // (closeSection below pops the section whose reference shortRunNs read.)
        long rawPs = Math.max(0, rawNs) * 1000;
        Calibration c = costs;
        long bias = mode == SHORT ? c.shortBias : mode == CPU_REUSED ? c.cpuReuseBias : c.cpuFreshBias;
        long subPs = closeSection(s) + bias;
        demand(s, section, rawPs, subPs);
        s.setShort(section, rawNs < SHORT_NS);
        // (After closeSection: `sections` counts the sections around this one.)
        long shortCost = s.sections > 0 ? c.nestedShortCost : c.shortCost;
        s.probePs += mode == SHORT ? shortCost : mode == CPU_REUSED ? c.cpuReuseCost : c.cpuFreshCost;
    }

    /**
     * A short section's run, by the wall clock; if it took long (descheduled, or a rare slow run),
     * less the time the thread was not running since its last CPU clock reading.
     */
    private static long shortRunNs(State s, long start) {
        long now = System.nanoTime();
        int top = s.sections - 1;
        return top < 0 ? now - start : wallRunNs(s, now, now - start, s.sectionRefCpu[top], s.sectionRefWall[top]);
    }

    /**
     * A run of `ns` by the wall clock, ending `now`: if it took long, less the time the thread was
     * not running since the reference reading (refCpu at refWall; -1: none) before it started.
     */
    private static long wallRunNs(State s, long now, long ns, long refCpu, long refWall) {
        if (ns >= SHORT_NS && refCpu >= 0) {
            long cpu = s.cpuNow();
            long lost = (now - refWall) - (cpu - refCpu);
            if (lost > 0) {
                ns = Math.max(0, ns - lost);
            }
            s.probePs += costs.cpuStep;
        }
        return ns;
    }

    /** Closes the innermost section: the cost of the probes that ran inside it (ps). */
    private static long closeSection(State s) {
        if (s.sections == 0) {
            return 0; // unbalanced (cannot happen with try/finally): nothing known to subtract
        }
        return s.probePs - s.sectionProbe[--s.sections];
    }

    private static void demand(State s, int section, long rawPs, long subPs) {
        s.lastRawPs = rawPs;
        if (PER_ITERATION || s.depth == 0) {
            s.record(OVERHEAD, section, s.current(), psToNs(subPs), 1);
            s.record(DEMAND, section, s.current(), Math.max(0, psToNs(rawPs - subPs)), 0);
            if (Counts.ON) {
                Counts.write(s, section, s.current());
            }
        } else {
            s.addDemand(section, rawPs - subPs, subPs);
        }
    }

    public static long startWall() {
        if (Counts.ON) {
            Counts.open();
        }
        State s = STATE.get();
        s.pushSection(WALL);
        return System.nanoTime();
    }

    public static void stopWall(int section, long start) {
        long rawPs = (System.nanoTime() - start) * 1000;
        State s = STATE.get();
        if (Counts.ON) {
            Counts.close(s.discarding ? -1 : section);
        }
        Calibration c = costs;
        demand(s, section, rawPs, closeSection(s) + c.wallBias);
        s.probePs += c.wallCost;
    }

    public static void loop(int loop, int count) {
        State s = STATE.get();
        s.record(LOOP, loop, s.current(), count, 0);
        s.probePs += costs.loopCost;
    }

    public static void branch(int transition) {
        State s = STATE.get();
        s.record(BRANCH, transition, s.current(), 0, 0);
        s.probePs += costs.branchCost;
    }
}
