package io.rill.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * The ways a decoder test cuts one input besides feeding it whole: a byte at a time, in two at every
 * index, and in random pieces of 1 to 16 bytes. A decoder must give the same messages and errors
 * every way, since the network may deliver any of them. The random cuttings are seeded by the
 * input's length, so a failure repeats.
 */
public final class Cuttings {

    /** Random cuttings {@link #of(byte[])} adds to the fixed ones. */
    public static final int RANDOM_CUTTINGS = 8;

    private Cuttings() {
    }

    /**
     * {@return the input cut a byte at a time, in two at every index and {@value #RANDOM_CUTTINGS}
     * times at random; each cutting a list of pieces that together are {@code bytes}}
     *
     * @param bytes the input
     */
    public static List<List<byte[]>> of(byte[] bytes) {
        return of(bytes, RANDOM_CUTTINGS);
    }

    /**
     * {@return the input cut a byte at a time, in two at every index and {@code randomCuttings} times
     * at random}
     *
     * @param bytes the input
     * @param randomCuttings how many random cuttings to add
     */
    public static List<List<byte[]>> of(byte[] bytes, int randomCuttings) {
        List<List<byte[]>> ways = new ArrayList<>();
        List<byte[]> single = new ArrayList<>(bytes.length);
        for (byte b : bytes) {
            single.add(new byte[] {b});
        }
        ways.add(single);
        for (int i = 1; i < bytes.length; i++) {
            ways.add(List.of(Arrays.copyOfRange(bytes, 0, i), Arrays.copyOfRange(bytes, i, bytes.length)));
        }
        Random random = new Random(bytes.length);
        for (int n = 0; n < randomCuttings; n++) {
            List<byte[]> pieces = new ArrayList<>();
            for (int at = 0; at < bytes.length; ) {
                int size = Math.min(bytes.length - at, 1 + random.nextInt(16));
                pieces.add(Arrays.copyOfRange(bytes, at, at + size));
                at += size;
            }
            ways.add(pieces);
        }
        return ways;
    }
}
