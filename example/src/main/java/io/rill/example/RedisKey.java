package io.rill.example;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.rill.buffer.ByteBuf;

/**
 * A key of the redis-server example's store, held and compared as bytes, as Redis keys are binary.
 * The store's keys are copies that never change. A connection also keeps one {@linkplain #probe
 * probe} and refills it for every GET and SET its fast path serves: looking a key up then costs
 * a copy into the probe's bytes rather than a String, its array and a temporary array per request.
 * A probe is never stored; {@link #copy} makes the key a new entry needs.
 */
final class RedisKey {

    /** Keys longer than this are looked up with a fresh copy, so a probe stays small. */
    static final int PROBE_BYTES = 64;

    private byte[] bytes;
    private int length;
    private int hash;

    private RedisKey(byte[] bytes, int length) {
        this.bytes = bytes;
        this.length = length;
        this.hash = hash(bytes, length);
    }

    /** A key holding a copy of {@code length} bytes at {@code index} of {@code buf}. */
    static RedisKey of(ByteBuf buf, int index, int length) {
        byte[] copy = new byte[length];
        buf.getBytes(index, copy);
        return new RedisKey(copy, length);
    }

    /** A reusable key for lookups; see {@link #refill}. */
    static RedisKey probe() {
        return new RedisKey(new byte[PROBE_BYTES], 0);
    }

    /**
     * This probe, now holding {@code length} bytes at {@code index} of {@code buf}, or a fresh
     * copy when they do not fit in a probe.
     */
    RedisKey refill(ByteBuf buf, int index, int length) {
        if (length > bytes.length) {
            return of(buf, index, length);
        }
        buf.getBytes(index, bytes, 0, length);
        this.length = length;
        this.hash = hash(bytes, length);
        return this;
    }

    /** An unchanging key equal to this one, to store. */
    RedisKey copy() {
        return new RedisKey(Arrays.copyOf(bytes, length), length);
    }

    private static int hash(byte[] bytes, int length) {
        int h = 1;
        for (int i = 0; i < length; i++) {
            h = 31 * h + bytes[i];
        }
        return h;
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RedisKey k && k.hash == hash && Arrays.equals(bytes, 0, length, k.bytes, 0, k.length);
    }

    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
    }
}
