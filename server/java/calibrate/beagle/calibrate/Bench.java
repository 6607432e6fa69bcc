package beagle.calibrate;

/** A generated instruction benchmark: one call runs its straight-line code once. */
public interface Bench {
    int run(int[] in);
}
