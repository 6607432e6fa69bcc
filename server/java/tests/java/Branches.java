/** If/else-if chains, ifs without else, and switch statements in both forms. */
public class Branches {
    static String size(int x) {
        String s;
        if (x < 10) s = "small";
        else if (x < 100) {
            s = "medium";
        } else if (x < 1000) s = "large";
        else s = "huge";
        if (x % 2 == 0) {
            s += "/even";
        }
        return s;
    }

    static int days(int month) {
        int d = 0;
        switch (month) {
            case 2:
                d = 28;
                break;
            case 4: case 6: case 9: case 11:
                d = 30;
                break;
            default:
                d = 31;
        }
        return d;
    }

    static String kind(char c) {
        String k = "other";
        switch (c) {
            case 'a', 'e', 'i', 'o', 'u' -> k = "vowel";
            case ' ' -> {
                k = "space";
            }
        }
        return k;
    }

    public static void main(String[] args) {
        StringBuilder b = new StringBuilder();
        for (int x : new int[] {3, 40, 555, 6000, 8}) {
            b.append(size(x)).append(' ');
        }
        for (int m = 1; m <= 12; m++) {
            b.append(days(m)).append(' ');
        }
        for (char c : "hi you".toCharArray()) {
            b.append(kind(c)).append(' ');
        }
        System.out.println(b);
    }
}
