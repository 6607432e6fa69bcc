import java.util.ArrayList;
import java.util.List;

/** Early returns and exceptions through timed sections and service methods. */
public class EarlyReturn {
    static int classify(int size, String name) {
        if (size < 0) {
            return -1;
        }
        int half = size / 2;
        String label = name + ":" + half;
        final int[] parts = {half, size - half};
        if (size > 10) {
            return parts[0] + parts[1] + label.length();
        }
        return half + label.length() + parts.length;
    }

    static int risky(int x) {
        int y = x * 3;
        if (x == 7) {
            throw new IllegalStateException("seven");
        }
        return y;
    }

    static int caller(int x) {
        try {
            return risky(x);
        } catch (IllegalStateException e) {
            return -100;
        }
    }

    public static void main(String[] args) {
        List<Integer> out = new ArrayList<>();
        for (int i = -1; i < 14; i += 3) {
            out.add(classify(i, "n" + i));
        }
        for (int i = 5; i < 9; i++) {
            out.add(caller(i));
        }
        System.out.println(out);
    }
}
