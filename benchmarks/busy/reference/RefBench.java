package beagle.probe;

import java.util.Arrays;

/**
 * The scatter of Reference.time() on this machine: N timings, each after the program streams an
 * 8 MB array (as a measured run evicts the caches), then the quantiles and the share of timings
 * above 1.1 to 1.5 times the lower quartile (the windows' "usual"). See README.md.
 */
public class RefBench {
    public static void main(String[] a) throws Exception {
        int n = Integer.parseInt(a[0]);
        for (int i = 0; i < 2000; i++) {
            Reference.time();
        }
        long[] t = new long[n];
        long[] big = new long[1 << 20];
        long acc = 0;
        for (int i = 0; i < n; i++) {
            t[i] = Reference.time();
            for (int k = 0; k < big.length; k += 8) {
                acc += big[k]++;
            }
        }
        long[] s = t.clone();
        Arrays.sort(s);
        double q1 = s[n / 4];
        System.out.printf("n=%d p25=%d p50=%d p90=%d p99=%d max=%d p99/p25=%.3f (%d)%n", n, s[n / 4], s[n / 2],
                s[9 * n / 10], s[99 * n / 100], s[n - 1], s[99 * n / 100] / q1, acc);
        for (double th : new double[] {1.1, 1.2, 1.3, 1.5}) {
            int c = 0;
            for (long x : t) {
                if (x > th * q1) {
                    c++;
                }
            }
            System.out.printf("  above %.1f x p25: %.1f%%%n", th, 100.0 * c / n);
        }
    }
}
