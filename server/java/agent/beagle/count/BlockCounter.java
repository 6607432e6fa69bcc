package beagle.count;

import beagle.probe.Counts;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.objectweb.asm.tree.*;

/**
 * Rewrites one class so that each basic block adds its instruction counts once per run: a block
 * ends before a jump target, at a jump, switch, return or throw (inclusive), and before a call of
 * the probe's section start or stop (so a section counts exactly its own instructions). At the
 * block's end goes {@code Counts.block(id)}, the block's counts registered once ({@code
 * Counts.defineBlock}): by opcode class, plus one key per JDK method it invokes. Array
 * allocations (newarray, anewarray) also pass their length to {@code Counts.array}.
 *
 * <p>An invocation of a JDK method that is passed an array also counts the elements it is passed
 * (key {@code <signature> elements}, made once per call site): where the first array parameter is
 * directly followed by two ints (offset, length), the length argument; otherwise that array's
 * length (0 for null); for {@code System.arraycopy}, whose descriptor names no array, its last int
 * (the length). Before the invoke, the arguments above the one needed are stored into fresh locals
 * (beyond the method's own), the one needed goes to {@code Counts.elements} (an array, or an int),
 * and the arguments are loaded back: straight-line code whose locals are dead at the next frame,
 * so the class's stack map frames stay valid.
 *
 * <p>Counted is the program as written: the probe's own calls, the constants and locals they take
 * and the locals they return into, and the loop counters the instrumentation adds (a local whose
 * value goes only to {@code Probe.loop}), are not. A block that ends in an exception is not
 * counted (the count sits at its end); the try/finally around a section adds a goto per run.
 */
final class BlockCounter {
    private static final String COUNTS = "beagle/probe/Counts";
    private static final String PROBE = "beagle/probe/Probe";

    private BlockCounter() {}

    static boolean isJdk(String owner) {
        return owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/")
                || owner.startsWith("sun/");
    }

    static byte[] rewrite(byte[] bytes) {
        ClassReader reader = new ClassReader(bytes);
        ClassNode cls = new ClassNode();
        reader.accept(cls, 0);
        for (MethodNode m : cls.methods) {
            if (m.instructions.size() > 0) {
                rewrite(m);
            }
        }
        // Frames stay valid: no branch target is added, and each insertion keeps the stack's types.
        ClassWriter writer = new ClassWriter(reader, ClassWriter.COMPUTE_MAXS);
        cls.accept(writer);
        return writer.toByteArray();
    }

    private static boolean isSectionCall(AbstractInsnNode n) {
        if (!(n instanceof MethodInsnNode) || !((MethodInsnNode) n).owner.equals(PROBE)) {
            return false;
        }
        String name = ((MethodInsnNode) n).name;
        return name.equals("startCpu") || name.equals("stopCpu") || name.equals("startWall") || name.equals("stopWall");
    }

    private static boolean isTerminal(int op) {
        return (op >= Opcodes.IFEQ && op <= Opcodes.RETURN) || op == Opcodes.ATHROW || op == Opcodes.IFNULL
                || op == Opcodes.IFNONNULL;
    }

    /** The labels a jump, switch or exception handler goes to: where blocks begin. */
    private static Set<LabelNode> targets(MethodNode m) {
        Set<LabelNode> t = new HashSet<>();
        for (AbstractInsnNode n : m.instructions) {
            if (n instanceof JumpInsnNode) {
                t.add(((JumpInsnNode) n).label);
            } else if (n instanceof TableSwitchInsnNode) {
                t.add(((TableSwitchInsnNode) n).dflt);
                t.addAll(((TableSwitchInsnNode) n).labels);
            } else if (n instanceof LookupSwitchInsnNode) {
                t.add(((LookupSwitchInsnNode) n).dflt);
                t.addAll(((LookupSwitchInsnNode) n).labels);
            }
        }
        for (TryCatchBlockNode c : m.tryCatchBlocks) {
            t.add(c.handler);
        }
        return t;
    }

    private static AbstractInsnNode realBefore(AbstractInsnNode n) {
        AbstractInsnNode p = n.getPrevious();
        while (p != null && p.getOpcode() < 0) {
            p = p.getPrevious();
        }
        return p;
    }

    private static AbstractInsnNode realAfter(AbstractInsnNode n) {
        AbstractInsnNode p = n.getNext();
        while (p != null && p.getOpcode() < 0) {
            p = p.getNext();
        }
        return p;
    }

    private static boolean isSimplePush(AbstractInsnNode n) {
        int op = n.getOpcode();
        return (op >= Opcodes.ACONST_NULL && op <= Opcodes.ALOAD);
    }

    /** The instructions the instrumentation added: probe calls, their simple arguments and results, loop counters. */
    private static Set<AbstractInsnNode> probeCode(MethodNode m) {
        Set<AbstractInsnNode> skip = new HashSet<>();
        Set<Integer> counters = new HashSet<>();
        for (AbstractInsnNode n : m.instructions) {
            if (!(n instanceof MethodInsnNode) || !((MethodInsnNode) n).owner.startsWith("beagle/probe/")) {
                continue;
            }
            MethodInsnNode call = (MethodInsnNode) n;
            skip.add(call);
            Type[] args = Type.getArgumentTypes(call.desc);
            AbstractInsnNode p = call;
            for (int i = args.length - 1; i >= 0; i--) {
                p = realBefore(p);
                if (p == null || !isSimplePush(p)) {
                    break;
                }
                skip.add(p);
                if (call.name.equals("loop") && i == 1 && p.getOpcode() == Opcodes.ILOAD) {
                    counters.add(((VarInsnNode) p).var);
                }
            }
            AbstractInsnNode next = realAfter(call);
            if (Type.getReturnType(call.desc) != Type.VOID_TYPE && next != null
                    && next.getOpcode() >= Opcodes.ISTORE && next.getOpcode() <= Opcodes.ASTORE) {
                skip.add(next);
            }
        }
        for (AbstractInsnNode n : m.instructions) {
            if (n instanceof IincInsnNode && counters.contains(((IincInsnNode) n).var)) {
                skip.add(n);
            } else if (n.getOpcode() == Opcodes.ISTORE && counters.contains(((VarInsnNode) n).var)) {
                skip.add(n);
                AbstractInsnNode p = realBefore(n);
                if (p != null && p.getOpcode() == Opcodes.ICONST_0) {
                    skip.add(p);
                }
            }
        }
        return skip;
    }

    /** One basic block's counts while it is read. */
    private static final class Block {
        final int[] classes = new int[OpcodeClasses.COUNT];
        final Map<String, Integer> calls = new LinkedHashMap<>();
        boolean empty = true;

        void add(AbstractInsnNode n) {
            classes[OpcodeClasses.of(n.getOpcode())]++;
            if (n instanceof MethodInsnNode && isJdk(((MethodInsnNode) n).owner)) {
                MethodInsnNode c = (MethodInsnNode) n;
                calls.merge(c.owner + "." + c.name + c.desc, 1, Integer::sum);
            }
            empty = false;
        }

        int[] pairs() {
            int n = 0;
            for (int c : classes) {
                n += c > 0 ? 1 : 0;
            }
            int[] p = new int[2 * (n + calls.size())];
            int i = 0;
            for (int k = 0; k < classes.length; k++) {
                if (classes[k] > 0) {
                    p[i++] = k;
                    p[i++] = classes[k];
                }
            }
            for (Map.Entry<String, Integer> e : calls.entrySet()) {
                p[i++] = Counts.key(e.getKey());
                p[i++] = e.getValue();
            }
            return p;
        }
    }

    private static void rewrite(MethodNode m) {
        Set<LabelNode> targets = targets(m);
        Set<AbstractInsnNode> skip = probeCode(m);
        InsnList code = m.instructions;
        Block block = new Block();
        for (AbstractInsnNode n : code.toArray()) {
            if (n instanceof LabelNode && targets.contains(n) || isSectionCall(n)) {
                block = end(code, block, n); // the block ends before n
            }
            int op = n.getOpcode();
            if (op < 0) {
                continue;
            }
            if (!skip.contains(n)) {
                block.add(n);
                if (n instanceof MethodInsnNode && isJdk(((MethodInsnNode) n).owner)) {
                    countElements(code, (MethodInsnNode) n, m.maxLocals);
                }
            }
            if (op == Opcodes.NEWARRAY || op == Opcodes.ANEWARRAY) {
                countArray(code, n);
            }
            if (isTerminal(op)) {
                block = end(code, block, n); // before the jump: it runs, then leaves
            }
        }
        end(code, block, null);
    }

    /** Inserts the block's count before `at` (null: at the end); returns a new, empty block. */
    private static Block end(InsnList code, Block block, AbstractInsnNode at) {
        if (!block.empty) {
            InsnList count = new InsnList();
            count.add(new LdcInsnNode(Counts.defineBlock(block.pairs())));
            count.add(new MethodInsnNode(Opcodes.INVOKESTATIC, COUNTS, "block", "(I)V", false));
            if (at == null) {
                code.add(count);
            } else {
                code.insertBefore(at, count);
            }
        }
        return new Block();
    }

    /** Before an array allocation: {@code Counts.array(length, key)}, the length kept on the stack. */
    private static void countArray(InsnList code, AbstractInsnNode n) {
        String type = n instanceof IntInsnNode ? primitive(((IntInsnNode) n).operand)
                : Type.getObjectType(((TypeInsnNode) n).desc).getClassName();
        InsnList call = new InsnList();
        call.add(new InsnNode(Opcodes.DUP));
        call.add(new LdcInsnNode(Counts.arrayKey(type)));
        call.add(new MethodInsnNode(Opcodes.INVOKESTATIC, COUNTS, "array", "(II)V", false));
        code.insertBefore(n, call);
    }

    /**
     * The index of the argument whose value is the elements a JDK method is passed, and whether
     * it is an array (its length counts) or an int (its value counts); null for none.
     */
    static int[] elementsArgument(String owner, String name, Type[] args) {
        for (int i = 0; i < args.length; i++) {
            if (args[i].getSort() == Type.ARRAY) {
                if (i + 2 < args.length && args[i + 1].getSort() == Type.INT && args[i + 2].getSort() == Type.INT) {
                    return new int[] {i + 2, 0};
                }
                return new int[] {i, 1};
            }
        }
        if (owner.equals("java/lang/System") && name.equals("arraycopy")) {
            return new int[] {args.length - 1, 0};
        }
        return null;
    }

    /**
     * Before a JDK method's invocation: the elements it is passed to {@code Counts.elements}. The
     * arguments above the one needed are stored (from the top) into fresh locals from `free` on,
     * the one needed is copied to the count, then they are loaded back.
     */
    private static void countElements(InsnList code, MethodInsnNode call, int free) {
        Type[] args = Type.getArgumentTypes(call.desc);
        int[] which = elementsArgument(call.owner, call.name, args);
        if (which == null) {
            return;
        }
        int arg = which[0];
        boolean array = which[1] == 1;
        InsnList insns = new InsnList();
        InsnList reload = new InsnList();
        int[] slots = new int[args.length];
        int next = free;
        for (int i = args.length - 1; i > arg; i--) {
            slots[i] = next;
            next += args[i].getSize();
            insns.add(new VarInsnNode(args[i].getOpcode(Opcodes.ISTORE), slots[i]));
        }
        insns.add(new InsnNode(Opcodes.DUP)); // an array or an int: one slot
        insns.add(new LdcInsnNode(Counts.elementsKey(call.owner + "." + call.name + call.desc)));
        String desc = array ? "(Ljava/lang/Object;I)V" : "(II)V";
        insns.add(new MethodInsnNode(Opcodes.INVOKESTATIC, COUNTS, "elements", desc, false));
        for (int i = arg + 1; i < args.length; i++) {
            reload.add(new VarInsnNode(args[i].getOpcode(Opcodes.ILOAD), slots[i]));
        }
        insns.add(reload);
        code.insertBefore(call, insns);
    }

    private static String primitive(int t) {
        switch (t) {
            case Opcodes.T_BOOLEAN: return "boolean";
            case Opcodes.T_CHAR: return "char";
            case Opcodes.T_FLOAT: return "float";
            case Opcodes.T_DOUBLE: return "double";
            case Opcodes.T_BYTE: return "byte";
            case Opcodes.T_SHORT: return "short";
            case Opcodes.T_INT: return "int";
            default: return "long";
        }
    }
}
