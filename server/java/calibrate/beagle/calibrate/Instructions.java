package beagle.calibrate;

import static beagle.calibrate.Generator.*;
import static beagle.calibrate.OpcodeClasses.*;
import static org.objectweb.asm.Opcodes.*;

import java.util.ArrayList;
import java.util.List;
import org.objectweb.asm.Label;

/**
 * Instruction-class timings as in Kuperberg's ByBench: per opcode class a generated method with a
 * long straight line of units (the measured instructions and the helpers that prepare the stack
 * and carry results into the sink) and a baseline method with the helpers alone. Their difference
 * per unit, less the known cost of any helper that differs between the two (solved in table order,
 * so each row has one unknown), is the class's time.
 *
 * <p>Both are timed compiled (class prefix {@code Jit}) and interpreted (prefix {@code Interp},
 * which the suite's JVM excludes from compilation with {@code -XX:CompileCommand}).
 */
final class Instructions {
    /** The floor a timing is clamped to: at or below it the class costs nothing measurable. */
    static final double FLOOR_NS = 0.001;

    record Row(String name, int target, char acc, Unit unit, Unit base) {}

    private static final int[] INT_OPS = {IADD, IXOR, ISUB};

    static List<Row> rows() {
        List<Row> r = new ArrayList<>();
        r.add(new Row("stack", STACK, 'I', (e, k) -> { e.op(DUP); e.op(POP); }, (e, k) -> {}));
        // A load and a pop against nothing (not against a dup: a chain of acc + acc is a shift to the JIT).
        r.add(new Row("load", LOAD, 'I', (e, k) -> { e.var(ILOAD, a(k)); e.op(POP); }, (e, k) -> {}));
        r.add(new Row("store", STORE, 'I', (e, k) -> { e.op(DUP); e.var(ISTORE, s(k)); },
                (e, k) -> { e.op(DUP); e.op(POP); }));
        r.add(new Row("const", CONST, 'I', (e, k) -> { e.push(k % 2 == 0 ? 3 + k % 120 : 200 + k); e.op(INT_OPS[k % 3]); },
                (e, k) -> { e.var(ILOAD, a(k)); e.op(INT_OPS[k % 3]); }));
        r.add(new Row("int-arith", INT_ARITH, 'I', (e, k) -> { e.var(ILOAD, a(k)); e.op(INT_OPS[k % 3]); },
                (e, k) -> { e.var(ILOAD, a(k)); e.op(POP); }));
        r.add(new Row("int-mul", INT_MUL, 'I', (e, k) -> { e.var(ILOAD, a(k)); e.op(IMUL); },
                (e, k) -> { e.var(ILOAD, a(k)); e.op(POP); }));
        // (acc + big) / a: the dividend stays large (a division's latency depends on its operands).
        r.add(new Row("int-div", INT_DIV, 'I',
                (e, k) -> { e.var(ILOAD, BIG_I); e.op(IADD); e.var(ILOAD, a(k)); e.op(k % 2 == 0 ? IDIV : IREM); },
                (e, k) -> { e.var(ILOAD, BIG_I); e.op(IADD); e.var(ILOAD, a(k)); e.op(POP); }));
        int[] longOps = {LADD, LXOR, LSUB};
        r.add(new Row("long-arith", LONG_ARITH, 'J', (e, k) -> { e.var(LLOAD, l(k)); e.op(longOps[k % 3]); },
                (e, k) -> { e.var(LLOAD, l(k)); e.op(POP2); }));
        r.add(new Row("long-mul", LONG_MUL, 'J', (e, k) -> { e.var(LLOAD, l(k)); e.op(LMUL); },
                (e, k) -> { e.var(LLOAD, l(k)); e.op(POP2); }));
        r.add(new Row("long-div", LONG_DIV, 'J',
                (e, k) -> { e.var(LLOAD, BIG_L); e.op(LADD); e.var(LLOAD, l(k)); e.op(LDIV); },
                (e, k) -> { e.var(LLOAD, BIG_L); e.op(LADD); e.var(LLOAD, l(k)); e.op(POP2); }));
        // Sums and products with factors near 1: the accumulator stays in range (no denormals).
        int[] floatOps = {FADD, FMUL, FSUB, FMUL};
        r.add(new Row("float-arith", FLOAT_ARITH, 'F', (e, k) -> { e.var(FLOAD, f(k)); e.op(floatOps[k % 4]); },
                (e, k) -> { e.var(FLOAD, f(k)); e.op(POP); }));
        int[] doubleOps = {DADD, DMUL, DSUB, DMUL};
        r.add(new Row("double-arith", DOUBLE_ARITH, 'D', (e, k) -> { e.var(DLOAD, d(k)); e.op(doubleOps[k % 4]); },
                (e, k) -> { e.var(DLOAD, d(k)); e.op(POP2); }));
        int[][] converts = {{I2L, L2I}, {I2B}, {I2S}, {I2C}};
        r.add(new Row("convert", CONVERT, 'I', (e, k) -> { for (int op : converts[k % 4]) e.op(op); },
                (e, k) -> {}));
        int[][] floatConverts = {{I2F, F2I}, {I2D, D2I}};
        r.add(new Row("float-convert", FLOAT_CONVERT, 'I',
                (e, k) -> { e.op(floatConverts[k % 2][0]); e.op(floatConverts[k % 2][1]); }, (e, k) -> {}));
        // A branch never taken (the a's are positive): the fall-through's helpers run in both.
        r.add(new Row("branch", BRANCH, 'I', (e, k) -> {
            Label skip = new Label();
            e.var(ILOAD, a(k));
            e.jump(IFLT, skip);
            e.var(ILOAD, a(k + 3));
            e.op(IADD);
            e.mv.visitLabel(skip);
        }, (e, k) -> { e.var(ILOAD, a(k)); e.op(POP); e.var(ILOAD, a(k + 3)); e.op(IADD); }));
        r.add(new Row("array-load", ARRAY_LOAD, 'I',
                (e, k) -> { e.var(ALOAD, IN); e.var(ILOAD, a(k)); e.op(IALOAD); e.op(INT_OPS[k % 3]); },
                (e, k) -> { e.var(ILOAD, a(k)); e.op(INT_OPS[k % 3]); }));
        r.add(new Row("array-store", ARRAY_STORE, 'I',
                (e, k) -> { e.var(ALOAD, IN); e.var(ILOAD, a(k)); e.var(ILOAD, a(k + 5)); e.op(IASTORE); },
                (e, k) -> { e.var(ALOAD, IN); e.var(ILOAD, a(k)); e.var(ILOAD, a(k + 5)); e.op(POP); e.op(POP); e.op(POP); }));
        r.add(new Row("field", FIELD, 'I', (e, k) -> {
            e.op(DUP);
            e.staticField(PUTSTATIC, "F" + (k % 8), "I");
            e.staticField(GETSTATIC, "F" + ((k + 3) % 8), "I");
            e.op(IADD);
        }, (e, k) -> { e.op(DUP); e.op(POP); e.var(ILOAD, a(k)); e.op(IADD); }));
        r.add(new Row("other", OTHER, 'I', (e, k) -> {
            e.var(ALOAD, IN);
            if (k % 2 == 0) {
                e.op(ARRAYLENGTH);
            } else {
                e.type(INSTANCEOF, "[I");
            }
            e.op(INT_OPS[k % 3]); // mixed operations: a chain of additions of constants folds
        }, (e, k) -> { e.var(ILOAD, a(k)); e.op(INT_OPS[k % 3]); }));
        // A call and its callee's return always run together: measured as a pair (see solve).
        r.add(new Row("invoke", INVOKE, 'I', (e, k) -> {
            e.call(INVOKESTATIC, e.owner, "id", "(I)I");
            e.executes(ILOAD);
            e.executes(IRETURN);
        }, (e, k) -> {}));
        r.add(new Row("new", OpcodeClasses.NEW, 'I', (e, k) -> {
            e.type(org.objectweb.asm.Opcodes.NEW, "java/lang/Object");
            e.op(DUP);
            e.call(INVOKESPECIAL, "java/lang/Object", "<init>", "()V");
            e.var(ALOAD, OBJS);
            e.op(SWAP);
            e.var(ILOAD, a(k));
            e.op(SWAP);
            e.op(AASTORE);
        }, (e, k) -> { e.var(ALOAD, OBJS); e.var(ILOAD, a(k)); e.var(ALOAD, IN); e.op(AASTORE); }));
        return r;
    }

    /** Units per method: 1000, fewer where that would pass HotSpot's huge-method limit. */
    static int units(Row row) {
        int bytes = Math.max(Generator.measure(row.unit).bytes, Generator.measure(row.base).bytes);
        return Math.max(100, Math.min(1000, 7000 * 8 / Math.max(1, bytes)));
    }

    static final class Loader extends ClassLoader {
        Loader() {
            super(Instructions.class.getClassLoader());
        }

        Bench load(String name, byte[] code) throws ReflectiveOperationException {
            return (Bench) defineClass(name.replace('/', '.'), code, 0, code.length)
                    .getDeclaredConstructor().newInstance();
        }
    }

    /** A benchmark as an operation of the timer (each with its own input: stores change it). */
    static Timer.Op op(Bench b) {
        int[] in = input();
        return reps -> {
            long s = 0;
            for (int i = 0; i < reps; i++) {
                s += b.run(in);
            }
            return s;
        };
    }

    /**
     * Times every row in one mode (class prefix `Jit` or `Interp`), reporting progress through
     * {@code tick} (once per row warmed up, once per round); returns ns per instruction by class,
     * clamped at {@link #FLOOR_NS}. Every row is warmed up first, then sampled in rounds (one sample
     * of each row's benchmark and baseline per round), so that a row's samples spread over the
     * whole phase: a busy second of the machine touches every row a little, not one row wholly.
     */
    static double[] measure(String mode, Timer timer, int warmupCalls, Runnable tick, List<String> notes)
            throws ReflectiveOperationException {
        List<Row> rows = rows();
        int r = rows.size();
        Timer.Op[] unitOps = new Timer.Op[r];
        Timer.Op[] baseOps = new Timer.Op[r];
        int[] unitReps = new int[r];
        int[] baseReps = new int[r];
        int[] units = new int[r];
        Loader loader = new Loader();
        for (int i = 0; i < r; i++) {
            Row row = rows.get(i);
            units[i] = units(row);
            String prefix = "beagle/calibrate/gen/" + mode + "_" + row.name.replace('-', '_');
            unitOps[i] = op(loader.load(prefix + "_unit", generate(prefix + "_unit", row.acc, row.unit, units[i])));
            baseOps[i] = op(loader.load(prefix + "_base", generate(prefix + "_base", row.acc, row.base, units[i])));
            unitReps[i] = timer.repsFor(unitOps[i], warmupCalls);
            baseReps[i] = timer.repsFor(baseOps[i], warmupCalls);
            tick.run();
        }
        double[][] unitNs = new double[r][timer.samples];
        double[][] baseNs = new double[r][timer.samples];
        for (int round = 0; round < timer.samples; round++) {
            for (int i = 0; i < r; i++) {
                unitNs[i][round] = (double) Timer.once(unitOps[i], unitReps[i]) / unitReps[i];
                baseNs[i][round] = (double) Timer.once(baseOps[i], baseReps[i]) / baseReps[i];
            }
            tick.run();
        }
        double[] t = new double[COUNT];
        boolean[] known = new boolean[COUNT];
        for (int i = 0; i < r; i++) {
            Row row = rows.get(i);
            double perUnit = (Timer.median(unitNs[i]) - Timer.median(baseNs[i])) / units[i];
            solve(row, perUnit, t, known, mode, notes);
        }
        return t;
    }

    /** The row's class from its difference per unit, less the helpers' known costs. */
    private static void solve(Row row, double perUnit, double[] t, boolean[] known, String mode, List<String> notes) {
        double[] cu = perUnit(row.unit);
        double[] cb = perUnit(row.base);
        double rest = perUnit;
        double unknown = 0;
        for (int c = 0; c < COUNT; c++) {
            double dc = cu[c] - cb[c];
            if (dc == 0) {
                continue;
            }
            if (c == row.target || (row.target == INVOKE && c == OpcodeClasses.RETURN)) {
                unknown += dc;
            } else if (row.target == OpcodeClasses.NEW && c == INVOKE) {
                // An object's allocation with its constructor's call: a new is always followed
                // by one, and Object's empty constructor takes a fast path that the generated
                // callee's cost would overstate (the interpreted difference went negative).
                continue;
            } else if (known[c]) {
                rest -= dc * t[c];
            } else {
                throw new IllegalStateException(row.name + " needs " + NAMES[c] + ", not yet timed");
            }
        }
        double v = rest / unknown;
        if (!(v > FLOOR_NS)) {
            notes.add(String.format("%s %s: %.4f ns per instruction measured, clamped to %s ns (at or below "
                    + "what the suite resolves: the %s compiles it away or hides it in other work)",
                    mode, row.name, v, FLOOR_NS, mode.equals("Jit") ? "JIT" : "interpreter"));
            v = FLOOR_NS;
        }
        t[row.target] = v;
        known[row.target] = true;
        if (row.target == INVOKE) {
            // A call and its return are counted alike (one each per call of generated code), so
            // the pair's cost is split evenly: their sum is what a prediction multiplies.
            t[OpcodeClasses.RETURN] = v;
            known[OpcodeClasses.RETURN] = true;
        }
    }

    static double[] perUnit(Unit u) {
        Emit e = Generator.measure(u);
        double[] c = new double[COUNT];
        for (int i = 0; i < COUNT; i++) {
            c[i] = e.counts[i] / 8.0;
        }
        return c;
    }
}
