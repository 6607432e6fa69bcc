import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;

/** Sections inside lambda bodies, and a service run by several threads. */
public class Lambdas {
    static final AtomicLong SUM = new AtomicLong();

    static long work(int n) {
        long acc = 0;
        for (int i = 0; i < n; i++) {
            acc += i * (long) i;
        }
        SUM.addAndGet(acc);
        return acc;
    }

    public static void main(String[] args) throws Exception {
        IntUnaryOperator square = x -> {
            int r = 0;
            for (int i = 0; i < x; i++) {
                r += x;
            }
            return r;
        };
        Runnable hello = () -> {
            String greeting = "hello";
            System.out.println(greeting + " " + square.applyAsInt(6));
        };
        hello.run();
        List<Thread> threads = new ArrayList<>();
        for (int t = 1; t <= 4; t++) {
            int n = t * 1000;
            Thread th = new Thread(() -> work(n));
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        System.out.println(SUM.get());
    }
}
