package beagle.probe;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What sits inside the user's objects, found by reflection once per class ({@link ClassValue}).
 *
 * <p>An object's BYTESIZE: the sum over its byte-carrying fields ({@code byte[]}, {@code String},
 * {@code ByteBuffer}, {@code File}, {@code Path}, declared in its class or a superclass outside
 * the JDK). A model's {@code items.BYTESIZE} for a {@code List<Item>} whose bytes sit in each
 * {@code Item}'s {@code byte[] content} is the sum of those. JDK classes are not opened (their
 * fields are no user's data, and the module system forbids it).
 *
 * <p>A model's composite parameter taken as one code object ({@code upload(request: UploadRequest)}
 * with inner declaration {@code Parts} for {@code upload(UploadRequest request)}): its members are
 * read through the object's field or getter named like the inner declaration (case aside:
 * {@code parts}, {@code getParts()}, {@code isParts()}, {@code parts()}) and characterised as
 * parameters of their own slots. The slots come from the class path resource
 * {@code beagle-members.txt} that Beagle writes beside the instrumented classes, a line per
 * member: {@code slot<TAB>member name<TAB>member slot}.
 */
final class Members {
    static final String RESOURCE = "beagle-members.txt";
    /** Per slot, its members' names and slots (null: none). */
    private static final String[][] NAMES;
    private static final int[][] SLOTS;

    static {
        Map<Integer, List<String>> names = new HashMap<>();
        Map<Integer, List<Integer>> slots = new HashMap<>();
        int max = -1;
        ClassLoader loader = Members.class.getClassLoader();
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(RESOURCE)
                : loader.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line; (line = r.readLine()) != null; ) {
                    String[] f = line.split("\t");
                    if (f.length != 3) {
                        continue;
                    }
                    int slot = Integer.parseInt(f[0]);
                    names.computeIfAbsent(slot, k -> new ArrayList<>()).add(f[1]);
                    slots.computeIfAbsent(slot, k -> new ArrayList<>()).add(Integer.parseInt(f[2]));
                    max = Math.max(max, slot);
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("beagle probe: cannot read " + RESOURCE + ": " + e);
        }
        NAMES = new String[max + 1][];
        SLOTS = new int[max + 1][];
        for (Map.Entry<Integer, List<String>> e : names.entrySet()) {
            NAMES[e.getKey()] = e.getValue().toArray(new String[0]);
            List<Integer> s = slots.get(e.getKey());
            SLOTS[e.getKey()] = new int[s.size()];
            for (int i = 0; i < s.size(); i++) {
                SLOTS[e.getKey()][i] = s.get(i);
            }
        }
    }

    private Members() {}

    /** The member names of a slot's composite parameter, or null. */
    static String[] names(int slot) {
        return slot >= 0 && slot < NAMES.length ? NAMES[slot] : null;
    }

    static int[] slots(int slot) {
        return SLOTS[slot];
    }

    /** The value of member {@code name} of {@code v} (its field or getter), or null. */
    static Object member(Object v, String name) {
        Accessor a = ACCESSORS.get(v.getClass()).get(name.toLowerCase(java.util.Locale.ROOT));
        if (a == null) {
            return null;
        }
        try {
            return a.field != null ? a.field.get(v) : a.getter.invoke(v);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    /** BYTESIZE of a user object: the sum over its byte-carrying fields; -1 where it has none. */
    static double byteSize(Object v) {
        Field[] fields = BYTE_FIELDS.get(v.getClass());
        if (fields.length == 0) {
            return -1;
        }
        double sum = 0;
        for (Field f : fields) {
            try {
                Object x = f.get(v);
                if (x != null) {
                    sum += Math.max(0, Probe.byteSize(x));
                }
            } catch (ReflectiveOperationException | RuntimeException e) {
                return -1;
            }
        }
        return sum;
    }

    private static boolean isJdk(Class<?> c) {
        String n = c.getName();
        return c.isArray() || c.isPrimitive() || n.startsWith("java.") || n.startsWith("javax.")
                || n.startsWith("jdk.") || n.startsWith("sun.") || n.startsWith("com.sun.");
    }

    private static boolean carriesBytes(Class<?> t) {
        return t == byte[].class || t == String.class || ByteBuffer.class.isAssignableFrom(t)
                || t == File.class || Path.class.isAssignableFrom(t);
    }

    private static final ClassValue<Field[]> BYTE_FIELDS = new ClassValue<Field[]>() {
        @Override
        protected Field[] computeValue(Class<?> type) {
            List<Field> out = new ArrayList<>();
            for (Class<?> c = type; c != null && !isJdk(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    if (Modifier.isStatic(f.getModifiers()) || !carriesBytes(f.getType())) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.add(f);
                    } catch (RuntimeException e) {
                        // Not open to us: not counted.
                    }
                }
            }
            return out.toArray(new Field[0]);
        }
    };

    /** A member's way in: a field, else a getter without parameters. */
    private static final class Accessor {
        final Field field;
        final Method getter;

        Accessor(Field field, Method getter) {
            this.field = field;
            this.getter = getter;
        }
    }

    /** Per class, its members by lower-case name: getters first (they are the API), then fields. */
    private static final ClassValue<Map<String, Accessor>> ACCESSORS = new ClassValue<Map<String, Accessor>>() {
        @Override
        protected Map<String, Accessor> computeValue(Class<?> type) {
            Map<String, Accessor> out = new HashMap<>();
            if (isJdk(type)) {
                return out;
            }
            for (Method m : type.getMethods()) {
                if (m.getParameterCount() != 0 || Modifier.isStatic(m.getModifiers())
                        || m.getReturnType() == void.class || m.getDeclaringClass() == Object.class) {
                    continue;
                }
                String n = m.getName();
                String key = n.startsWith("get") && n.length() > 3 ? n.substring(3)
                        : n.startsWith("is") && n.length() > 2 ? n.substring(2) : n;
                key = key.toLowerCase(java.util.Locale.ROOT);
                if (out.containsKey(key) && n.equals(key)) {
                    continue; // `getParts()` wins over a `parts()` of the same name
                }
                try {
                    m.setAccessible(true);
                } catch (RuntimeException e) {
                    continue;
                }
                out.put(key, new Accessor(null, m));
            }
            for (Class<?> c = type; c != null && !isJdk(c); c = c.getSuperclass()) {
                for (Field f : c.getDeclaredFields()) {
                    String key = f.getName().toLowerCase(java.util.Locale.ROOT);
                    if (Modifier.isStatic(f.getModifiers()) || out.containsKey(key)) {
                        continue;
                    }
                    try {
                        f.setAccessible(true);
                        out.put(key, new Accessor(f, null));
                    } catch (RuntimeException e) {
                        // Not open to us.
                    }
                }
            }
            return out;
        }
    };
}
