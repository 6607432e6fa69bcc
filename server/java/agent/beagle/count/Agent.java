package beagle.count;

import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.Instrumentation;
import java.security.ProtectionDomain;

/**
 * The counting agent of a counting run ({@code -javaagent:beagle-count.jar}, with {@code
 * -Dbeagle.count=true}): rewrites the user's classes as they load so that each basic block counts
 * its instructions into {@code beagle.probe.Counts} ({@link BlockCounter}). The JDK, the probe
 * runtime and ASM itself are left alone: a JDK method is counted as one call by its signature, as
 * ByCounter does, not by the instructions inside it, and by the elements of the array (or the
 * length with an offset) it is passed, which its cost grows with.
 */
public final class Agent implements ClassFileTransformer {
    private Agent() {}

    public static void premain(String args, Instrumentation inst) {
        inst.addTransformer(new Agent());
    }

    /** Whether a class (internal name) is the user's: not the JDK's, the probe's or ASM's. */
    static boolean isUsers(String name) {
        return name != null && !BlockCounter.isJdk(name) && !name.startsWith("beagle/probe/")
                && !name.startsWith("beagle/count/") && !name.startsWith("org/objectweb/asm/")
                && !name.startsWith("com/sun/") && !name.startsWith("jdk/");
    }

    @Override
    public byte[] transform(ClassLoader loader, String name, Class<?> redefined, ProtectionDomain domain, byte[] bytes) {
        // The boot and platform loaders load the JDK only.
        if (loader == null || loader == ClassLoader.getPlatformClassLoader() || !isUsers(name)) {
            return null;
        }
        try {
            return BlockCounter.rewrite(bytes);
        } catch (Throwable e) {
            // An unreadable class runs uncounted rather than failing the program.
            System.err.println("beagle count: " + name + " not counted: " + e);
            return null;
        }
    }
}
