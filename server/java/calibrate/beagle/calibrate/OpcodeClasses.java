package beagle.calibrate;

import static org.objectweb.asm.Opcodes.*;

import org.objectweb.asm.Opcodes;

/**
 * Opcodes to the opcode classes of {@code beagle.probe.Counts.CLASSES}: a copy of the counting
 * agent's {@code beagle.count.OpcodeClasses} (package-private there; the suite is compiled apart
 * from the agent). A Rust test checks that the two mappings are the same text, so that a timing
 * here means one instruction of what a counting run counts under that name.
 */
final class OpcodeClasses {
    static final String[] NAMES = {
        "const", "load", "store", "stack", "array-load", "array-store", "int-arith", "int-mul", "int-div",
        "long-arith", "long-mul", "long-div", "float-arith", "double-arith", "convert", "branch", "field",
        "invoke", "new", "return", "other", "float-convert",
    };

    static final int CONST = 0, LOAD = 1, STORE = 2, STACK = 3, ARRAY_LOAD = 4, ARRAY_STORE = 5, INT_ARITH = 6,
            INT_MUL = 7, INT_DIV = 8, LONG_ARITH = 9, LONG_MUL = 10, LONG_DIV = 11, FLOAT_ARITH = 12,
            DOUBLE_ARITH = 13, CONVERT = 14, BRANCH = 15, FIELD = 16, INVOKE = 17, NEW = 18, RETURN = 19, OTHER = 20,
            FLOAT_CONVERT = 21;
    static final int COUNT = 22;

    private OpcodeClasses() {}

    // BEGIN mapping (the same as the agent's)
    static int of(int op) {
        if (op >= ACONST_NULL && op <= LDC) return CONST;
        if (op >= ILOAD && op <= ALOAD) return LOAD;
        if (op >= IALOAD && op <= SALOAD) return ARRAY_LOAD;
        if (op >= ISTORE && op <= ASTORE) return STORE;
        if (op >= IASTORE && op <= SASTORE) return ARRAY_STORE;
        if (op >= POP && op <= SWAP) return STACK;
        switch (op) {
            case IMUL: return INT_MUL;
            case IDIV: case IREM: return INT_DIV;
            case LMUL: return LONG_MUL;
            case LDIV: case LREM: return LONG_DIV;
            case IADD: case ISUB: case INEG: case ISHL: case ISHR: case IUSHR: case IAND: case IOR: case IXOR:
            case IINC:
                return INT_ARITH;
            case LADD: case LSUB: case LNEG: case LSHL: case LSHR: case LUSHR: case LAND: case LOR: case LXOR:
            case LCMP:
                return LONG_ARITH;
            case FADD: case FSUB: case FMUL: case FDIV: case FREM: case FNEG: case FCMPL: case FCMPG:
                return FLOAT_ARITH;
            case DADD: case DSUB: case DMUL: case DDIV: case DREM: case DNEG: case DCMPL: case DCMPG:
                return DOUBLE_ARITH;
            case GETFIELD: case PUTFIELD: case GETSTATIC: case PUTSTATIC: return FIELD;
            case INVOKEVIRTUAL: case INVOKESPECIAL: case INVOKESTATIC: case INVOKEINTERFACE: case INVOKEDYNAMIC:
                return INVOKE;
            // The opcodes NEW and RETURN by their qualified names: this class's own NEW and RETURN
            // (class ids) hide the static import's.
            case Opcodes.NEW: case NEWARRAY: case ANEWARRAY: case MULTIANEWARRAY: return NEW;
            case IFNULL: case IFNONNULL: return BRANCH;
            default:
        }
        // Between int and long, and narrowing: moves or nothing once compiled. To or from float
        // and double: a conversion instruction, and in C1 a fix-up for NaN and overflow that
        // costs as much as a division (one class for both made C1's i2l in a hash loop 1 ns).
        if (op == I2L || op == L2I || (op >= I2B && op <= I2S)) return CONVERT;
        if (op >= I2F && op <= D2F) return FLOAT_CONVERT;
        if (op >= IFEQ && op <= LOOKUPSWITCH) return BRANCH; // ifs, goto, jsr, ret, switches
        if (op >= IRETURN && op <= Opcodes.RETURN) return RETURN;
        return OTHER; // arraylength, athrow, checkcast, instanceof, monitors, nop
    }
    // END mapping
}
