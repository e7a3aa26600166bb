package io.rill.handler.codec.http.websocketx;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.LongBuffer;
import java.security.SecureRandom;

import io.rill.buffer.ByteBuf;
import io.rill.util.concurrent.FastThreadLocal;

/**
 * Masking (RFC 6455 §5.3): every payload byte XORed with a byte of the 4-byte key, in turn. A
 * large payload is masked through a {@link LongBuffer} view of its memory, 8 bytes per step: the
 * JIT compiles that loop to plain loads and stores, where a {@code getLong}/{@code setLong} pair
 * through a buffer's checked accessors cost two thirds of the server's Java time echoing 16 KiB
 * messages. Below {@link #VIEW_THRESHOLD} the two view objects would cost more than they save.
 *
 * <p>Keys come from {@link SecureRandom} (§5.3: unpredictable, or a page's script could choose the
 * bytes a proxy sees), fetched 1 KiB at a time into a per-thread reserve: one call into the
 * generator, with its lock, per 256 frames instead of per frame.
 */
final class WebSocketMasking {

    private static final int VIEW_THRESHOLD = 256;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final FastThreadLocal<KeyReserve> KEYS = new FastThreadLocal<>() {
        @Override
        protected KeyReserve initialValue() {
            return new KeyReserve();
        }
    };

    private WebSocketMasking() {
    }

    /**
     * Appends {@code length} bytes of {@code src} from {@code srcIndex}, masked with the key, to
     * {@code dst}; the first byte is the payload's first (offset 0). Masking and unmasking are the
     * same operation.
     */
    static void copyMasked(ByteBuf src, int srcIndex, int length, int maskKey, ByteBuf dst) {
        int start = dst.writerIndex();
        dst.writeBytes(src, srcIndex, length);
        maskInPlace(dst, start, length, maskKey, 0);
    }

    /**
     * XORs {@code length} bytes at {@code index} with the key; {@code offset} is the position of
     * the first byte within the payload, so a payload can be unmasked in pieces. The buffer must
     * be writable (not read-only).
     */
    static void maskInPlace(ByteBuf buf, int index, int length, int maskKey, long offset) {
        int i = 0;
        if ((offset & 3) == 0) {
            long wordMask = wordMask(maskKey);
            if (length >= VIEW_THRESHOLD && buf.nioBufferCount() == 1) {
                // One region of memory: the view writes through to it (a composite's would be a copy).
                LongBuffer words = buf.nioBuffer(index, length).order(ByteOrder.nativeOrder()).asLongBuffer();
                long nativeMask = LITTLE_ENDIAN ? Long.reverseBytes(wordMask) : wordMask;
                int count = words.remaining();
                for (int w = 0; w < count; w++) {
                    words.put(w, words.get(w) ^ nativeMask);
                }
                i = count << 3;
            }
            for (; i + 8 <= length; i += 8) {
                buf.setLong(index + i, buf.getLong(index + i) ^ wordMask);
            }
        }
        for (; i < length; i++) {
            buf.setByte(index + i, buf.getByte(index + i) ^ maskByte(maskKey, offset + i));
        }
    }

    /** {@return a fresh, unpredictable masking key} */
    static int newMaskKey() {
        return KEYS.get().next();
    }

    /** Random bytes fetched ahead for one thread, handed out 4 at a time and never twice. */
    private static final class KeyReserve {
        private final byte[] bytes = new byte[1024];
        private int next = bytes.length;

        int next() {
            if (next == bytes.length) {
                RANDOM.nextBytes(bytes);
                next = 0;
            }
            int key = (int) INTS.get(bytes, next);
            next += 4;
            return key;
        }
    }

    /** The key byte that masks payload byte {@code offset}: key bytes go in network order. */
    static int maskByte(int maskKey, long offset) {
        return maskKey >>> (24 - 8 * (int) (offset & 3)) & 0xFF;
    }

    /** The key twice, big-endian: it repeats every 4 bytes, so a word at a multiple of 4 masks with it. */
    static long wordMask(int maskKey) {
        return (long) maskKey << 32 | maskKey & 0xFFFFFFFFL;
    }
}
