package beagle.probe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a counting run counts (issue 39): executed bytecode instructions by opcode class,
 * invocations of JDK methods by signature, the elements those invocations are passed ({@code
 * <signature> elements}) and array allocations with their sizes, per demand section. Inert unless
 * {@code -Dbeagle.count=true} and the counting agent ({@code beagle.count.Agent}) rewrote the
 * user's classes to call {@link #block} once per basic block run, {@link #array} before each
 * array allocation and {@link #elements(Object, int)} or {@link #elements(int, int)} before each
 * invocation of a JDK method that is passed an array (or, for {@code System.arraycopy}, a length).
 *
 * <p>Counting is by block: the agent registers each basic block's static counts once ({@link
 * #defineBlock}: key, count pairs), and a run of the block adds 1 to the block's counter in the
 * innermost open section's frame. A frame closes into its section's totals (blocks times their
 * counts) and into the frame around it, so a section's counts include the sections nested in it
 * and the user code it calls. The totals are written per section and execution beside the
 * demand totals (COUNT records, {@link #write}); the key names go to the file {@code
 * -Dbeagle.countKeys} names (one "id\tname" line per key), since a record has no room for them.
 */
public final class Counts {
    static final boolean ON = Boolean.getBoolean("beagle.count");
    static final int COUNT = 10;

    /**
     * The opcode classes, key ids 0..n-1 (the agent's {@code Opcodes} maps opcodes to them). Close
     * to the groups ByBench times alike: arithmetic per type, with multiplication and division
     * apart where they cost a multiple of an addition.
     */
    public static final String[] CLASSES = {
        "const", "load", "store", "stack", "array-load", "array-store", "int-arith", "int-mul", "int-div",
        "long-arith", "long-mul", "long-div", "float-arith", "double-arith", "convert", "branch", "field",
        "invoke", "new", "return", "other", "float-convert",
    };

    private static final List<String> KEYS = new ArrayList<>(List.of(CLASSES));
    private static final Map<String, Integer> KEY_IDS = new HashMap<>();
    /** Per block id: key, count pairs. */
    private static volatile int[][] blocks = new int[1024][];
    private static int blockCount;
    private static int savedKeys;

    static {
        for (int i = 0; i < CLASSES.length; i++) {
            KEY_IDS.put(CLASSES[i], i);
        }
    }

    private Counts() {}

    /** The id of a key (a JDK method's signature, an array type), made on first use. */
    public static synchronized int key(String name) {
        Integer id = KEY_IDS.get(name);
        if (id == null) {
            id = KEYS.size();
            KEYS.add(name);
            KEY_IDS.put(name, id);
        }
        return id;
    }

    /** The key pair of allocations of arrays of `type`: their number, then their elements. */
    public static synchronized int arrayKey(String type) {
        int k = key("new " + type + "[]");
        key("new " + type + "[] elements");
        return k;
    }

    /**
     * The key of the elements a JDK method (by signature) is passed: {@code <signature> elements}.
     * Its calls are counted by the signature alone (a block's key).
     */
    public static int elementsKey(String signature) {
        return key(signature + " elements");
    }

    /** Registers a basic block's counts (key, count pairs); returns its id. */
    public static synchronized int defineBlock(int[] pairs) {
        int[][] b = blocks;
        if (blockCount == b.length) {
            b = java.util.Arrays.copyOf(b, b.length * 2);
        }
        b[blockCount] = pairs;
        blocks = b;
        return blockCount++;
    }

    /** One open section's counting: block runs and direct counts (array allocations) by key. */
    static final class Frame {
        long[] blockRuns = new long[256];
        int[] touchedBlocks = new int[64];
        int nBlocks;
        long[] keyCounts = new long[64];
        int[] touchedKeys = new int[16];
        int nKeys;

        void addBlock(int id, long runs) {
            if (id >= blockRuns.length) {
                blockRuns = java.util.Arrays.copyOf(blockRuns, Math.max(id + 1, blockRuns.length * 2));
            }
            if (blockRuns[id] == 0) {
                if (nBlocks == touchedBlocks.length) {
                    touchedBlocks = java.util.Arrays.copyOf(touchedBlocks, nBlocks * 2);
                }
                touchedBlocks[nBlocks++] = id;
            }
            blockRuns[id] += runs;
        }

        void addKey(int key, long n) {
            if (n == 0) {
                return; // a key is touched once, when its count becomes positive
            }
            if (key >= keyCounts.length) {
                keyCounts = java.util.Arrays.copyOf(keyCounts, Math.max(key + 1, keyCounts.length * 2));
            }
            if (keyCounts[key] == 0) {
                if (nKeys == touchedKeys.length) {
                    touchedKeys = java.util.Arrays.copyOf(touchedKeys, nKeys * 2);
                }
                touchedKeys[nKeys++] = key;
            }
            keyCounts[key] += n;
        }

        void clear() {
            for (int i = 0; i < nBlocks; i++) {
                blockRuns[touchedBlocks[i]] = 0;
            }
            for (int i = 0; i < nKeys; i++) {
                keyCounts[touchedKeys[i]] = 0;
            }
            nBlocks = 0;
            nKeys = 0;
        }
    }

    /** One thread's open frames and per-section totals (since their last write). */
    static final class Thread {
        Frame[] frames = new Frame[8];
        int depth;
        /** Per section: counts by key, and the keys touched. */
        Frame[] totals = new Frame[64];
        long[] runs = new long[64];
    }

    private static final ThreadLocal<Thread> THREAD = ThreadLocal.withInitial(Thread::new);

    /** A run of basic block `id` (inserted by the agent at the block's end). */
    public static void block(int id) {
        Thread t = THREAD.get();
        if (t.depth > 0) {
            t.frames[t.depth - 1].addBlock(id, 1);
        }
    }

    /** An allocation of an array of `length` elements (the agent's {@link #arrayKey}). */
    public static void array(int length, int key) {
        Thread t = THREAD.get();
        if (t.depth > 0) {
            Frame f = t.frames[t.depth - 1];
            f.addKey(key, 1);
            f.addKey(key + 1, Math.max(0, length));
        }
    }

    /**
     * A JDK method was passed `n` elements (the length argument of an array, offset and length
     * triple; {@code System.arraycopy}'s length): `n` added to key `key` ({@link #elementsKey}).
     */
    public static void elements(int n, int key) {
        Thread t = THREAD.get();
        if (t.depth > 0) {
            t.frames[t.depth - 1].addKey(key, Math.max(0, n));
        }
    }

    /**
     * A JDK method was passed `array` (any array type, or null: 0 elements): its length added to
     * key `key` ({@link #elementsKey}). In Java rather than in the rewritten code, so that the
     * inserted bytecode stays straight-line (no branch for the null check, no frame to add).
     */
    public static void elements(Object array, int key) {
        Thread t = THREAD.get();
        if (t.depth > 0) {
            t.frames[t.depth - 1].addKey(key, array == null ? 0 : java.lang.reflect.Array.getLength(array));
        }
    }

    /** A demand section opens (Probe.startCpu, startWall). */
    static void open() {
        Thread t = THREAD.get();
        if (t.depth == t.frames.length) {
            t.frames = java.util.Arrays.copyOf(t.frames, t.depth * 2);
        }
        if (t.frames[t.depth] == null) {
            t.frames[t.depth] = new Frame();
        }
        t.depth++;
    }

    /** Section `section` closes: its frame goes into its totals and into the frame around it. */
    static void close(int section) {
        Thread t = THREAD.get();
        if (t.depth == 0) {
            return;
        }
        Frame f = t.frames[--t.depth];
        if (section < 0) {
            f.clear(); // not a section of the model (the probes' calibration)
            return;
        }
        Frame outer = t.depth > 0 ? t.frames[t.depth - 1] : null;
        if (section >= t.totals.length) {
            int n = Math.max(section + 1, t.totals.length * 2);
            t.totals = java.util.Arrays.copyOf(t.totals, n);
            t.runs = java.util.Arrays.copyOf(t.runs, n);
        }
        Frame total = t.totals[section];
        if (total == null) {
            total = t.totals[section] = new Frame();
        }
        t.runs[section]++;
        int[][] table = blocks;
        for (int i = 0; i < f.nBlocks; i++) {
            int id = f.touchedBlocks[i];
            long runs = f.blockRuns[id];
            int[] pairs = table[id];
            for (int p = 0; p < pairs.length; p += 2) {
                total.addKey(pairs[p], runs * pairs[p + 1]);
            }
            if (outer != null) {
                outer.addBlock(id, runs);
            }
        }
        for (int i = 0; i < f.nKeys; i++) {
            int key = f.touchedKeys[i];
            total.addKey(key, f.keyCounts[key]);
            if (outer != null) {
                outer.addKey(key, f.keyCounts[key]);
            }
        }
        f.clear();
    }

    /**
     * Writes the section's counts since the last write as COUNT records of `execution` (a: key id
     * shifted left 32 bits, or'ed with the section's runs; b: the count), and forgets them.
     */
    static void write(Probe.State s, int section, long execution) {
        Thread t = THREAD.get();
        if (section < 0 || section >= t.totals.length || t.totals[section] == null) {
            return;
        }
        Frame total = t.totals[section];
        long runs = Math.min(t.runs[section], 0xffffffffL);
        for (int i = 0; i < total.nKeys; i++) {
            int key = total.touchedKeys[i];
            s.record(COUNT, section, execution, ((long) key << 32) | runs, total.keyCounts[key]);
        }
        total.clear();
        t.runs[section] = 0;
    }

    /** Writes the key names to {@code -Dbeagle.countKeys} when keys were added since the last save. */
    static synchronized void saveKeys() {
        String path = System.getProperty("beagle.countKeys");
        if (path == null || savedKeys == KEYS.size()) {
            return;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < KEYS.size(); i++) {
            out.append(i).append('\t').append(KEYS.get(i)).append('\n');
        }
        try {
            Files.write(Paths.get(path), out.toString().getBytes(StandardCharsets.UTF_8));
            savedKeys = KEYS.size();
        } catch (IOException e) {
            System.err.println("beagle probe: cannot write count keys: " + e);
        }
    }
}
