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
 */
public final class Probe {
    static final int ENTER = 1, PARAM = 2, EXIT = 3, DEMAND = 4, LOOP = 5, BRANCH = 6, DEMAND_TOTAL = 7;
    static final int VALUE = 1, BYTESIZE = 2, NUMBER_OF_ELEMENTS = 3, INNER_BYTESIZE = 4;
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
     * Whether an EXIT record carries the thread CPU time of its execution, entry to exit (callees
     * on the thread included): {@code -Dbeagle.serviceCpu=true} or BEAGLE_SERVICE_CPU=true, set
     * by `beagle validate`. Off in analyses: two more clock readings per execution.
     */
    static final boolean SERVICE_CPU = Boolean.getBoolean("beagle.serviceCpu")
            || "true".equals(System.getenv("BEAGLE_SERVICE_CPU"));
    private static final List<State> STATES = new ArrayList<>();
    private static final FileChannel OUT = open();
    /** Whether flushAll syncs the file: not for /dev/null and pipes (benchmarks), which cannot. */
    private static final boolean SYNC =
            OUT != null && Files.isRegularFile(Paths.get(System.getProperty("beagle.events")));

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
        int depth;
        int pendingCall = -1;
        long pendingCaller;
        /** Per demand section: the execution its totals belong to (0: none), count and time. */
        long[] totalOwner = new long[64], totalCount = new long[64], totalNs = new long[64];
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
                flush();
            }
            buffer.putInt(type).putInt(section).putLong(execution).putLong(a).putLong(b);
        }

        /** Adds one run of a demand section to the current execution's totals. */
        void addDemand(int section, long ns) {
            long e = current();
            if (section >= totalOwner.length) {
                int n = Math.max(section + 1, totalOwner.length * 2);
                totalOwner = java.util.Arrays.copyOf(totalOwner, n);
                totalCount = java.util.Arrays.copyOf(totalCount, n);
                totalNs = java.util.Arrays.copyOf(totalNs, n);
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
            totalNs[section] += ns;
        }

        void writeTotal(int section) {
            record(DEMAND_TOTAL, section, totalOwner[section], totalNs[section], totalCount[section]);
            totalCount[section] = 0;
            totalNs[section] = 0;
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
            long cpu = THREADS.getCurrentThreadCpuTime();
            lastCpu = cpu;
            lastWall = System.nanoTime();
            hasCpu = true;
            return cpu;
        }

        synchronized void flush() {
            buffer.flip();
            if (OUT != null) {
                synchronized (OUT) {
                    try {
                        while (buffer.hasRemaining()) {
                            OUT.write(buffer);
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
    }

    private Probe() {}

    private static int initialIteration() {
        try {
            String v = System.getenv("BEAGLE_ITERATION");
            return v == null ? 1 : Integer.parseInt(v.trim());
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    private static FileChannel open() {
        String path = System.getProperty("beagle.events", System.getenv("BEAGLE_EVENTS"));
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
        if (SYNC) {
            try {
                OUT.force(false);
            } catch (IOException e) {
                System.err.println("beagle probe: cannot sync events: " + e);
            }
        }
    }

    // --- service executions -------------------------------------------------------------------

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
            s.touchedFrom = java.util.Arrays.copyOf(s.touchedFrom, s.depth * 2);
        }
        s.record(ENTER, service, e, caller, ((long) call << 32) | (iteration & 0xffffffffL));
        s.touchedFrom[s.depth] = s.touchedTop;
        s.executions[s.depth] = e;
        if (SERVICE_CPU) {
            s.enteredCpu[s.depth] = s.cpuNow();
        }
        s.entered[s.depth++] = System.nanoTime();
        return e;
    }

    /** Exit of the execution `e` (in a finally block: also on exceptions). */
    public static void exit(long e) {
        long now = System.nanoTime();
        State s = STATE.get();
        long cpu = SERVICE_CPU ? s.cpuNow() : 0;
        // Normally e is on top; after an unbalanced exit (cannot happen with try/finally) unwind to it.
        for (int i = s.depth - 1; i >= 0; i--) {
            if (s.executions[i] == e) {
                s.writeTotalsFrom(i);
                s.depth = i;
                // b: the execution's thread CPU time (at least 1 when measured; 0: not measured).
                s.record(EXIT, 0, e, now - s.entered[i], SERVICE_CPU ? Math.max(1, cpu - s.enteredCpu[i]) : 0);
                return;
            }
        }
    }

    /** The next SEFF entry on this thread, from the current execution, is made by external call `call`. */
    public static void call(int call) {
        State s = STATE.get();
        s.pendingCall = call;
        s.pendingCaller = s.current();
    }

    // --- parameter characterisations ------------------------------------------------------------

    public static void param(long e, int slot, long v) {
        STATE.get().record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits((double) v));
    }

    public static void param(long e, int slot, double v) {
        STATE.get().record(PARAM, slot, e, VALUE, Double.doubleToRawLongBits(v));
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
        State s = STATE.get();
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
            if (elements != null && n > 0) {
                double sum = 0;
                for (Object x : elements) {
                    double b = x == null ? -1 : byteSize(x);
                    if (b < 0) {
                        return;
                    }
                    sum += b;
                }
                s.record(PARAM, slot, e, INNER_BYTESIZE, Double.doubleToRawLongBits(sum / n));
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
        return -1;
    }

    // --- timed sections, loops, branches ------------------------------------------------------------

    public static long startCpu() {
        State s = STATE.get();
        if (s.hasCpu) {
            long since = System.nanoTime() - s.lastWall;
            if (since >= 0 && since < CPU_REUSE_NS) {
                return s.lastCpu + since;
            }
        }
        return s.cpuNow();
    }

    public static void stopCpu(int section, long start) {
        State s = STATE.get();
        long ns = Math.max(0, s.cpuNow() - start);
        demand(s, section, ns);
    }

    private static void demand(State s, int section, long ns) {
        if (PER_ITERATION || s.depth == 0) {
            s.record(DEMAND, section, s.current(), ns, 0);
        } else {
            s.addDemand(section, ns);
        }
    }

    public static long startWall() {
        return System.nanoTime();
    }

    public static void stopWall(int section, long start) {
        long ns = System.nanoTime() - start;
        State s = STATE.get();
        demand(s, section, ns);
    }

    public static void loop(int loop, int count) {
        State s = STATE.get();
        s.record(LOOP, loop, s.current(), count, 0);
    }

    public static void branch(int transition) {
        State s = STATE.get();
        s.record(BRANCH, transition, s.current(), 0, 0);
    }
}
