package beagle.calibrate;

import static org.objectweb.asm.Opcodes.*;

import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;

/**
 * Generates a benchmark class with ASM: {@code run(int[] in)} reads its operands from {@code in}
 * (so the JIT cannot fold them as constants), keeps an accumulator on the stack, runs a unit of
 * instructions {@code units} times in a straight line, and returns the accumulator and the stored
 * locals (the sink: every result flows into the return value).
 *
 * <p>Locals: 0 this, 1 {@code in} (also the int array the array benchmarks use), 2-9 ints
 * {@link #a}, 10-17 longs {@link #l}, 18-21 floats {@link #f}, 22-29 doubles {@link #d}, 30-37
 * store targets {@link #s}, 38 a large int, 39-40 a large long, 41 an {@code Object[]}.
 */
final class Generator {
    static final int IN = 1, BIG_I = 38, BIG_L = 39, OBJS = 41;
    /** The input array: indices 0-39 are the array the benchmarks read and write, the rest operands. */
    static final int IN_LENGTH = 64;

    static int a(int k) { return 2 + Math.floorMod(k, 8); }
    static int l(int k) { return 10 + 2 * Math.floorMod(k, 4); }
    static int f(int k) { return 18 + Math.floorMod(k, 4); }
    static int d(int k) { return 22 + 2 * Math.floorMod(k, 4); }
    static int s(int k) { return 30 + Math.floorMod(k, 8); }

    /** The benchmark input: the array part small odd numbers (also valid indices), then operands. */
    static int[] input() {
        int[] in = new int[IN_LENGTH];
        for (int i = 0; i < 40; i++) {
            in[i] = 3 + 2 * (i % 8);
        }
        for (int i = 0; i < 8; i++) {
            in[40 + i] = 3 + 2 * i; // a0..a7: odd, 3..17 (indices into the array part too)
        }
        int[] fs = {500, 1001, 500, 999}; // f, d = these / 1000: sums and products stay bounded
        System.arraycopy(fs, 0, in, 48, 4);
        in[52] = 1_000_000_000; // large int; large long = it * 1000
        in[53] = 12345; // the accumulator's start
        return in;
    }

    /** A unit of instructions: the k-th of a method (k picks operands, so that they vary). */
    interface Unit {
        void emit(Emit e, int k);
    }

    static byte[] generate(String name, char acc, Unit unit, int units) {
        ClassWriter cw = new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
            @Override
            protected String getCommonSuperClass(String t1, String t2) {
                return "java/lang/Object";
            }
        };
        cw.visit(V17, ACC_PUBLIC | ACC_FINAL | ACC_SUPER, name, null, "java/lang/Object",
                new String[] {"beagle/calibrate/Bench"});
        for (int i = 0; i < 8; i++) {
            cw.visitField(ACC_STATIC, "F" + i, "I", null, null).visitEnd();
        }
        cw.visitField(ACC_STATIC, "OBJS", "[Ljava/lang/Object;", null, null).visitEnd();

        MethodVisitor clinit = cw.visitMethod(ACC_STATIC, "<clinit>", "()V", null, null);
        clinit.visitCode();
        clinit.visitIntInsn(BIPUSH, 40);
        clinit.visitTypeInsn(ANEWARRAY, "java/lang/Object");
        clinit.visitFieldInsn(PUTSTATIC, name, "OBJS", "[Ljava/lang/Object;");
        clinit.visitInsn(RETURN);
        clinit.visitMaxs(0, 0);
        clinit.visitEnd();

        MethodVisitor init = cw.visitMethod(ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(ALOAD, 0);
        init.visitMethodInsn(INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
        init.visitInsn(RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();

        // The callee of the invoke benchmark: returns its argument (an iload and an ireturn).
        MethodVisitor id = cw.visitMethod(ACC_STATIC, "id", "(I)I", null, null);
        id.visitCode();
        id.visitVarInsn(ILOAD, 0);
        id.visitInsn(IRETURN);
        id.visitMaxs(0, 0);
        id.visitEnd();

        MethodVisitor mv = cw.visitMethod(ACC_PUBLIC, "run", "([I)I", null, null);
        mv.visitCode();
        prologue(mv, name, acc);
        Emit e = new Emit(mv, name);
        for (int k = 0; k < units; k++) {
            unit.emit(e, k);
        }
        epilogue(mv, acc);
        mv.visitMaxs(0, 0);
        mv.visitEnd();
        cw.visitEnd();
        return cw.toByteArray();
    }

    private static void element(MethodVisitor mv, int index) {
        mv.visitVarInsn(ALOAD, IN);
        mv.visitIntInsn(BIPUSH, index);
        mv.visitInsn(IALOAD);
    }

    private static void prologue(MethodVisitor mv, String name, char acc) {
        for (int i = 0; i < 8; i++) {
            element(mv, 40 + i);
            mv.visitVarInsn(ISTORE, a(i));
            mv.visitInsn(ICONST_0);
            mv.visitVarInsn(ISTORE, s(i));
        }
        for (int i = 0; i < 4; i++) {
            mv.visitVarInsn(ILOAD, a(i));
            mv.visitInsn(I2L);
            mv.visitLdcInsn(1000003L); // odd times odd: the multipliers stay odd
            mv.visitInsn(LMUL);
            mv.visitVarInsn(LSTORE, l(i));
            element(mv, 48 + i);
            mv.visitInsn(I2F);
            mv.visitLdcInsn(1000f);
            mv.visitInsn(FDIV);
            mv.visitVarInsn(FSTORE, f(i));
            element(mv, 48 + i);
            mv.visitInsn(I2D);
            mv.visitLdcInsn(1000d);
            mv.visitInsn(DDIV);
            mv.visitVarInsn(DSTORE, d(i));
        }
        element(mv, 52);
        mv.visitVarInsn(ISTORE, BIG_I);
        element(mv, 52);
        mv.visitInsn(I2L);
        mv.visitLdcInsn(1000L);
        mv.visitInsn(LMUL);
        mv.visitVarInsn(LSTORE, BIG_L);
        mv.visitFieldInsn(GETSTATIC, name, "OBJS", "[Ljava/lang/Object;");
        mv.visitVarInsn(ASTORE, OBJS);
        element(mv, 53);
        switch (acc) {
            case 'J': mv.visitInsn(I2L); break;
            case 'F': mv.visitInsn(I2F); break;
            case 'D': mv.visitInsn(I2D); break;
            default:
        }
    }

    private static void epilogue(MethodVisitor mv, char acc) {
        switch (acc) {
            case 'J': mv.visitInsn(L2I); break;
            case 'F': mv.visitInsn(F2I); break;
            case 'D': mv.visitInsn(D2I); break;
            default:
        }
        for (int i = 0; i < 8; i++) {
            mv.visitVarInsn(ILOAD, s(i));
            mv.visitInsn(IADD);
        }
        mv.visitInsn(IRETURN);
    }

    /** One unit's counts and bytes (emitted into nowhere): what a method of such units executes. */
    static Emit measure(Unit unit) {
        Emit e = new Emit(new MethodVisitor(ASM9) {}, "x");
        for (int k = 0; k < 8; k++) {
            unit.emit(e, k);
        }
        return e;
    }
}
