package beagle.calibrate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.function.IntFunction;
import java.util.zip.Deflater;

/**
 * The JDK methods counting runs name, by the signature a count key uses, each timed at several
 * sizes (elements of its array argument, or the length passed with an offset) so that a straight
 * line over the sizes gives a cost per call and per element; and array allocations per element
 * type (the key's type as the agent writes it: {@code java.lang.Object} for reference arrays).
 */
final class Methods {
    /** A benchmark: a key ({@code method <sig>} or {@code array <type>}), its sizes, its operation per size. */
    record Entry(String kind, String key, int[] sizes, IntFunction<Timer.Op> op) {}

    static final int[] BYTES = {16, 256, 2048, 8192};
    static final int[] ONE = {0};

    static byte[] data(int n) {
        // Text-like bytes (words from a small vocabulary): what a file service compresses and
        // hashes, neither all alike (Deflater's cheapest case) nor random (its dearest).
        byte[] b = new byte[n];
        long x = 88172645463325252L;
        String[] words = {"beagle ", "upload ", "file ", "share ", "the ", "of ", "compress ", "42 ", "\n"};
        int i = 0;
        while (i < n) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            byte[] w = words[(int) Math.floorMod(x, (long) words.length)].getBytes(StandardCharsets.US_ASCII);
            for (int j = 0; j < w.length && i < n; j++) {
                b[i++] = w[j];
            }
        }
        return b;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static List<Entry> entries() {
        List<Entry> e = new ArrayList<>();
        e.add(new Entry("method", "java/security/MessageDigest.digest([B)[B", BYTES, n -> {
            MessageDigest md = sha256();
            byte[] b = data(n);
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    s += md.digest(b)[0];
                }
                return s;
            };
        }));
        e.add(new Entry("method", "java/security/MessageDigest.update([B)V", BYTES, n -> {
            MessageDigest md = sha256();
            byte[] b = data(n);
            return reps -> {
                for (int i = 0; i < reps; i++) {
                    md.update(b);
                }
                return md.hashCode();
            };
        }));
        e.add(new Entry("method", "java/security/MessageDigest.update([BII)V", BYTES, n -> {
            MessageDigest md = sha256();
            byte[] b = data(n + 16);
            return reps -> {
                for (int i = 0; i < reps; i++) {
                    md.update(b, 8, n);
                }
                return md.hashCode();
            };
        }));
        e.add(new Entry("method", "java/security/MessageDigest.getInstance(Ljava/lang/String;)Ljava/security/MessageDigest;",
                ONE, n -> reps -> {
                    long s = 0;
                    for (int i = 0; i < reps; i++) {
                        s += sha256().getDigestLength();
                    }
                    return s;
                }));
        // Deflater: the compression runs inside deflate, but its work follows the input that
        // setInput was given, so the per-byte cost is setInput's (its elements are the input
        // bytes) and the per-call cost (finish, the deflate call, reset) is deflate's: deflate's
        // own array is the output buffer, whose size does not drive the work.
        e.add(new Entry("method", "java/util/zip/Deflater.setInput([B)V", BYTES, n -> {
            Deflater d = new Deflater();
            byte[] in = data(n);
            byte[] out = new byte[n + 1024];
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    d.reset();
                    d.setInput(in);
                    d.finish();
                    while (!d.finished()) {
                        s += d.deflate(out);
                    }
                }
                return s;
            };
        }));
        e.add(new Entry("method", "java/lang/System.arraycopy(Ljava/lang/Object;ILjava/lang/Object;II)V", BYTES, n -> {
            byte[] a = data(n);
            byte[] b = new byte[n];
            return reps -> {
                for (int i = 0; i < reps; i++) {
                    a[i & 7] = (byte) i;
                    System.arraycopy(a, 0, b, 0, n);
                }
                return b[n - 1];
            };
        }));
        e.add(new Entry("method", "java/util/Arrays.fill([II)V", BYTES, n -> {
            int[] a = new int[n];
            return reps -> {
                for (int i = 0; i < reps; i++) {
                    Arrays.fill(a, i);
                }
                return a[n - 1];
            };
        }));
        e.add(new Entry("method", "java/util/Arrays.fill([BB)V", BYTES, n -> {
            byte[] a = new byte[n];
            return reps -> {
                for (int i = 0; i < reps; i++) {
                    Arrays.fill(a, (byte) i);
                }
                return a[n - 1];
            };
        }));
        e.add(new Entry("method", "java/util/Arrays.copyOf([BI)[B", BYTES, n -> {
            byte[] a = data(n);
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    a[i & 7] = (byte) i;
                    s += Arrays.copyOf(a, n)[n - 1 - (i & 7)];
                }
                return s;
            };
        }));
        e.add(new Entry("method", "java/util/HashMap.get(Ljava/lang/Object;)Ljava/lang/Object;", ONE, n -> {
            HashMap<Integer, Integer> m = map();
            Integer[] keys = keys();
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    s += m.get(keys[i & 1023]);
                }
                return s;
            };
        }));
        e.add(new Entry("method",
                "java/util/HashMap.put(Ljava/lang/Object;Ljava/lang/Object;)Ljava/lang/Object;", ONE, n -> {
                    HashMap<Integer, Integer> m = map();
                    Integer[] keys = keys();
                    return reps -> {
                        for (int i = 0; i < reps; i++) {
                            m.put(keys[i & 1023], keys[(i + 1) & 1023]);
                        }
                        return m.size();
                    };
                }));
        int[] chars = {8, 64, 256, 1024};
        e.add(new Entry("method", "java/lang/StringBuilder.append(Ljava/lang/String;)Ljava/lang/StringBuilder;",
                chars, n -> {
                    String text = new String(data(n), StandardCharsets.US_ASCII);
                    StringBuilder sb = new StringBuilder(2 * n + 16);
                    return reps -> {
                        long s = 0;
                        for (int i = 0; i < reps; i++) {
                            sb.setLength(0);
                            s += sb.append(text).length();
                        }
                        return s;
                    };
                }));
        e.add(new Entry("method", "java/lang/String.getBytes()[B", chars, n -> {
            String text = new String(data(n), StandardCharsets.US_ASCII);
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    s += text.getBytes()[i % n];
                }
                return s;
            };
        }));
        e.add(new Entry("method", "java/lang/String.getBytes(Ljava/nio/charset/Charset;)[B", chars, n -> {
            String text = new String(data(n), StandardCharsets.US_ASCII);
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    s += text.getBytes(StandardCharsets.UTF_8)[i % n];
                }
                return s;
            };
        }));
        e.add(new Entry("method", "java/util/HexFormat.formatHex([B)Ljava/lang/String;", new int[] {8, 32, 128, 512}, n -> {
            HexFormat hex = HexFormat.of();
            byte[] b = data(n);
            return reps -> {
                long s = 0;
                for (int i = 0; i < reps; i++) {
                    b[0] = (byte) i;
                    s += hex.formatHex(b).length();
                }
                return s;
            };
        }));
        int[] lengths = {16, 256, 2048, 8192};
        e.add(new Entry("array", "byte", lengths, n -> reps -> {
            long s = 0;
            for (int i = 0; i < reps; i++) {
                byte[] a = new byte[n];
                Keep.objects[i & 15] = a;
                s += a.length;
            }
            return s;
        }));
        e.add(new Entry("array", "int", lengths, n -> reps -> {
            long s = 0;
            for (int i = 0; i < reps; i++) {
                int[] a = new int[n];
                Keep.objects[i & 15] = a;
                s += a.length;
            }
            return s;
        }));
        e.add(new Entry("array", "long", lengths, n -> reps -> {
            long s = 0;
            for (int i = 0; i < reps; i++) {
                long[] a = new long[n];
                Keep.objects[i & 15] = a;
                s += a.length;
            }
            return s;
        }));
        e.add(new Entry("array", "java.lang.Object", lengths, n -> reps -> {
            long s = 0;
            for (int i = 0; i < reps; i++) {
                Object[] a = new Object[n];
                Keep.objects[i & 15] = a;
                s += a.length;
            }
            return s;
        }));
        return e;
    }

    /** Where allocated arrays go, so that escape analysis cannot remove the allocation. */
    static final class Keep {
        static final Object[] objects = new Object[16];
    }

    static HashMap<Integer, Integer> map() {
        HashMap<Integer, Integer> m = new HashMap<>();
        for (int i = 0; i < 1024; i++) {
            m.put(i * 7919, i);
        }
        return m;
    }

    static Integer[] keys() {
        Integer[] k = new Integer[1024];
        for (int i = 0; i < 1024; i++) {
            k[i] = i * 7919;
        }
        return k;
    }
}
