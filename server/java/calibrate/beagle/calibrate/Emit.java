package beagle.calibrate;

import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Emits the instructions of one benchmark unit and counts them by opcode class, as the counting
 * agent would count them (a callee's instructions included: the agent counts generated code's
 * callees too). The byte estimate keeps a method below HotSpot's limit for compiling it (8000
 * bytes of bytecode, {@code DontCompileHugeMethods}).
 */
final class Emit {
    final MethodVisitor mv;
    final String owner;
    final int[] counts = new int[OpcodeClasses.COUNT];
    int bytes;

    Emit(MethodVisitor mv, String owner) {
        this.mv = mv;
        this.owner = owner;
    }

    private void count(int opcode, int size) {
        counts[OpcodeClasses.of(opcode)]++;
        bytes += size;
    }

    void op(int opcode) {
        mv.visitInsn(opcode);
        count(opcode, 1);
    }

    void var(int opcode, int slot) {
        mv.visitVarInsn(opcode, slot);
        count(opcode, slot < 4 ? 1 : 2);
    }

    /** An int constant: iconst, bipush or sipush, all of class const. */
    void push(int c) {
        if (c >= -1 && c <= 5) {
            mv.visitInsn(Opcodes.ICONST_0 + c);
            count(Opcodes.ICONST_0, 1);
        } else if (c >= Byte.MIN_VALUE && c <= Byte.MAX_VALUE) {
            mv.visitIntInsn(Opcodes.BIPUSH, c);
            count(Opcodes.BIPUSH, 2);
        } else {
            mv.visitIntInsn(Opcodes.SIPUSH, c);
            count(Opcodes.SIPUSH, 3);
        }
    }

    void staticField(int opcode, String name, String desc) {
        mv.visitFieldInsn(opcode, owner, name, desc);
        count(opcode, 3);
    }

    void jump(int opcode, Label l) {
        mv.visitJumpInsn(opcode, l);
        count(opcode, 3);
    }

    void type(int opcode, String type) {
        mv.visitTypeInsn(opcode, type);
        count(opcode, 3);
    }

    void call(int opcode, String owner, String name, String desc) {
        mv.visitMethodInsn(opcode, owner, name, desc, false);
        count(opcode, 3);
    }

    /** Instructions executed elsewhere (a generated callee's), counted but not emitted here. */
    void executes(int opcode) {
        counts[OpcodeClasses.of(opcode)]++;
    }
}
