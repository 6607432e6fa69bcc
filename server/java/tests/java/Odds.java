import java.util.function.IntSupplier;

/** Less common places: constructors, switch expressions, loops as sole bodies, `var` used only
 *  inside a section, an else-if chain seen as then/else, fields named like inserted locals. */
public class Odds {
    static int __beagleT0 = 5;
    final int base;

    static class Base {
        final int seed;

        Base(int seed) {
            this.seed = seed;
        }
    }

    static class Child extends Base {
        final int twice;

        Child(int seed, boolean flag) {
            super(seed + 1);
            if (flag) {
                twice = seed * 2;
            } else {
                twice = -seed;
            }
        }
    }

    Odds(int base) {
        this.base = base;
    }

    int pick(int x) {
        IntSupplier next = () -> x + 1;
        int y = switch (x % 3) {
            case 0 -> next.getAsInt();
            case 1 -> {
                yield x * 2;
            }
            default -> base;
        };
        return y;
    }

    int sum(int[] xs, boolean twice) {
        int s = 0;
        if (twice) for (int x : xs) s += 2 * x;
        else {
            int i = 0;
            do {
                i++;
                if (xs[i - 1] < 0) continue;
                s += xs[i - 1];
            } while (i < xs.length);
        }
        var local = s * 3;
        s = local - 2 * s;
        return s;
    }

    String grade(int score) {
        if (score > 90) return "A";
        else if (score > 80) return "B";
        else return "C";
    }

    public static void main(String[] args) {
        Odds o = new Odds(__beagleT0);
        System.out.println(o.pick(3) + " " + o.pick(4) + " " + o.pick(5));
        System.out.println(o.sum(new int[] {1, -2, 3}, false) + " " + o.sum(new int[] {1, 2}, true));
        System.out.println(o.grade(95) + o.grade(85) + o.grade(10));
        Child c = new Child(4, true);
        Child d = new Child(4, false);
        System.out.println(c.seed + " " + c.twice + " " + d.twice);
    }
}
