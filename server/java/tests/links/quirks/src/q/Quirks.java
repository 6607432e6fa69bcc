package q;

/** Offsets into this file are written the three ways SoMoX/JaMoPP and the schema do. Ünïcödé 𝄞. */
public class Quirks {
    private Sink sink;

    public int work(int[] data) {
        int sum = 0;
        for (int i = 0; i < data.length; i++) {
            sum += data[i];
            sink.put(i);
        }
        if (sum > 10) {
            sum = sum / 2;
        }
        return sum;
    }
}
