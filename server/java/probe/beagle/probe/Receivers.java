package beagle.probe;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One inherited body, several components: which component's section an execution is, by the
 * class of the object that receives the call. The tables come from the class path resource
 * {@code beagle-dispatch.txt} that Beagle writes beside the instrumented classes, a line per
 * class: {@code table<TAB>binary class name<TAB>section}. A class not named takes the nearest
 * superclass that is (an anonymous subclass of a component is that component); none: -1, an
 * execution of no component, which the decoder drops. Loaded on the first pick only (code
 * without shared bodies never loads it); each class is looked up once ({@link ClassValue}), so a
 * pick costs a few ns and allocates nothing.
 */
final class Receivers {
    static final String RESOURCE = "beagle-dispatch.txt";
    /** Per table, the classes and their sections. */
    private static final String[][] CLASSES;
    private static final int[][] SECTIONS;

    static {
        List<List<String>> classes = new ArrayList<>();
        List<List<Integer>> sections = new ArrayList<>();
        ClassLoader loader = Receivers.class.getClassLoader();
        try (InputStream in = loader == null ? ClassLoader.getSystemResourceAsStream(RESOURCE)
                : loader.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                System.err.println("beagle probe: " + RESOURCE + " is not on the class path: shared bodies are not measured");
            } else {
                BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
                for (String line; (line = r.readLine()) != null; ) {
                    String[] f = line.split("\t");
                    if (f.length != 3) {
                        continue;
                    }
                    int table = Integer.parseInt(f[0]);
                    while (classes.size() <= table) {
                        classes.add(new ArrayList<String>());
                        sections.add(new ArrayList<Integer>());
                    }
                    classes.get(table).add(f[1]);
                    sections.get(table).add(Integer.parseInt(f[2]));
                }
            }
        } catch (IOException | RuntimeException e) {
            System.err.println("beagle probe: cannot read " + RESOURCE + ": " + e);
        }
        CLASSES = new String[classes.size()][];
        SECTIONS = new int[classes.size()][];
        for (int t = 0; t < CLASSES.length; t++) {
            CLASSES[t] = classes.get(t).toArray(new String[0]);
            SECTIONS[t] = new int[CLASSES[t].length];
            for (int i = 0; i < SECTIONS[t].length; i++) {
                SECTIONS[t][i] = sections.get(t).get(i);
            }
        }
    }

    /** Per class, its section in every table (-1: none). */
    private static final ClassValue<int[]> PICKS = new ClassValue<int[]>() {
        @Override
        protected int[] computeValue(Class<?> type) {
            int[] out = new int[CLASSES.length];
            for (int t = 0; t < out.length; t++) {
                out[t] = -1;
                search:
                for (Class<?> c = type; c != null; c = c.getSuperclass()) {
                    for (int i = 0; i < CLASSES[t].length; i++) {
                        if (CLASSES[t][i].equals(c.getName())) {
                            out[t] = SECTIONS[t][i];
                            break search;
                        }
                    }
                }
            }
            return out;
        }
    };

    private Receivers() {}

    static int pick(Object receiver, int table) {
        int[] sections = PICKS.get(receiver.getClass());
        return table >= 0 && table < sections.length ? sections[table] : -1;
    }
}
