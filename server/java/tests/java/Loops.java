import java.util.List;

/** Loops with break and continue (also labelled), nested loops, a loop in a timed section in a
 *  service, and recursion. */
public class Loops {
    static int grid(int n) {
        int hits = 0;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if (j > i) continue outer;
                if (i * j > 6) break outer;
                hits++;
            }
        }
        return hits;
    }

    static int scan(List<String> words) {
        int total = 0;
        for (String w : words) {
            if (w.isEmpty()) continue;
            if (w.equals("stop")) break;
            total += w.length();
        }
        int k = 0;
        while (k < total) k += 4;
        do total--; while (total > 20);
        return total + k;
    }

    static int fact(int n) {
        if (n <= 1) return 1;
        return n * fact(n - 1);
    }

    public static void main(String[] args) {
        System.out.println(grid(3) + " " + grid(5));
        System.out.println(scan(List.of("ab", "", "cde", "stop", "zzzz")));
        System.out.println(scan(List.of("aaaaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbb")));
        System.out.println(fact(5));
    }
}
