package io.rill.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The layout every Rill fuzz target reads its input in: the first byte chooses how the payload is
 * cut into pieces, the rest is the payload. Keeping the split out of the payload means a seed file
 * is the wire bytes with one byte in front, so the attack bytes of docs/security-cases.md go into
 * the corpora as they are.
 *
 * <p>Targets feed the payload whole and then in {@link #pieces(byte[])}, and check that both give
 * the same result: a decoder's output must not depend on where the reads happened to end.
 */
public final class FuzzInput {

    private FuzzInput() {
    }

    /** {@return the bytes after the split selector (empty for an empty input)} */
    public static byte[] payload(byte[] input) {
        return input.length == 0 ? input : Arrays.copyOfRange(input, 1, input.length);
    }

    /**
     * Cuts the payload as the selector byte says: 0 one byte per piece, otherwise lengths from 1 to
     * the selector's value drawn from a generator seeded with it, so the fuzzer can steer and
     * replay the cut. Never returns an empty piece.
     *
     * @param input the whole fuzz input, selector first
     * @return the payload's pieces, in order
     */
    public static List<byte[]> pieces(byte[] input) {
        byte[] payload = payload(input);
        List<byte[]> pieces = new ArrayList<>();
        int selector = input.length == 0 ? 0 : input[0] & 0xFF;
        SplittableRandom cuts = new SplittableRandom(selector * 31L + payload.length);
        for (int at = 0; at < payload.length; ) {
            int length = selector == 0 ? 1 : 1 + cuts.nextInt(selector);
            length = Math.min(length, payload.length - at);
            pieces.add(Arrays.copyOfRange(payload, at, at + length));
            at += length;
        }
        return pieces;
    }
}
