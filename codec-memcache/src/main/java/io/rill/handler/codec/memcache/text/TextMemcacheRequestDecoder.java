package io.rill.handler.codec.memcache.text;

import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/**
 * A server's decoder: text-protocol command lines, with their data blocks, as
 * {@link TextMemcacheRequest}s. Bounds in the package description; a malformed or oversized line,
 * an unknown command or a data block not ended by {@code \r\n} is a
 * {@link TextMemcacheDecoderException}, after which every later byte is dropped (a server answers
 * it with {@code CLIENT_ERROR} or {@code ERROR} and closes).
 */
public final class TextMemcacheRequestDecoder extends TextMemcacheDecoder {

    private static final byte[] NOREPLY = {'n', 'o', 'r', 'e', 'p', 'l', 'y'};

    /** Lines up to 2 KiB, data blocks up to 1 MiB (memcached's item size), 128 keys in a get. */
    public TextMemcacheRequestDecoder() {
        this(DEFAULT_MAX_LINE_LENGTH, DEFAULT_MAX_DATA_LENGTH, DEFAULT_MAX_KEYS);
    }

    /**
     * A decoder with its own bounds.
     *
     * @param maxLineLength the longest command line, its {@code \r\n} included (at least 64)
     * @param maxDataLength the largest data block
     * @param maxKeys the most keys in one get, gets, gat or gats
     */
    public TextMemcacheRequestDecoder(int maxLineLength, int maxDataLength, int maxKeys) {
        super(maxLineLength, maxDataLength, maxKeys);
    }

    @Override
    Object line(ByteBuf in, int[] t, int count, int lineStart, int lineEnd) {
        if (count == 0) {
            throw new TextMemcacheDecoderException("an empty command line");
        }
        if (count > maxTokens()) {
            throw new TextMemcacheDecoderException("a command line of more than " + maxTokens() + " words (maxKeys is "
                    + maxKeys() + "): " + TextWire.quote(in, lineStart, lineEnd));
        }
        TextMemcacheCommand command = TextMemcacheCommand.find(in, t[0], t[1]);
        if (command == null) {
            throw TextWire.bad("command (unknown)", in, lineStart, lineEnd);
        }
        return switch (command.shape) {
            case STORAGE -> storage(command, in, t, count, lineStart, lineEnd);
            case RETRIEVAL -> retrieval(command, in, t, count, lineStart, lineEnd);
            case KEYED -> keyed(command, in, t, count, lineStart, lineEnd);
            case BARE -> {
                arity(count == 1, in, lineStart, lineEnd);
                yield command == TextMemcacheCommand.VERSION ? TextMemcacheRequest.version() : TextMemcacheRequest.quit();
            }
        };
    }

    private Object storage(TextMemcacheCommand command, ByteBuf in, int[] t, int count, int lineStart, int lineEnd) {
        int fixed = command == TextMemcacheCommand.CAS ? 6 : 5;
        arity(count == fixed || count == fixed + 1, in, lineStart, lineEnd);
        String key = TextWire.key(in, t[2], t[3]);
        long flags = TextWire.unsigned(in, t[4], t[5], TextMemcacheRequest.MAX_FLAGS, "flags");
        int exptime = TextWire.exptime(in, t[6], t[7]);
        long cas = command == TextMemcacheCommand.CAS ? TextWire.unsigned(in, t[10], t[11], -1L, "cas unique") : 0;
        boolean noreply = noreply(in, t, count, fixed);
        expectData(new TextMemcacheRequest(command, List.of(key), flags, exptime, cas, 0, noreply, Unpooled.EMPTY_BUFFER),
                in, t[8], t[9]);
        return null;
    }

    private Object retrieval(TextMemcacheCommand command, ByteBuf in, int[] t, int count, int lineStart, int lineEnd) {
        boolean touches = command == TextMemcacheCommand.GAT || command == TextMemcacheCommand.GATS;
        int first = touches ? 2 : 1;
        arity(count > first, in, lineStart, lineEnd);
        if (count - first > maxKeys()) {
            throw new TextMemcacheDecoderException("a " + command.name().toLowerCase(java.util.Locale.ROOT) + " of "
                    + (count - first) + " keys, over maxKeys (" + maxKeys() + ")");
        }
        int exptime = touches ? TextWire.exptime(in, t[2], t[3]) : 0;
        String[] keys = new String[count - first];
        for (int i = first; i < count; i++) {
            keys[i - first] = TextWire.key(in, t[2 * i], t[2 * i + 1]);
        }
        return new TextMemcacheRequest(command, List.of(keys), 0, exptime, 0, 0, false, Unpooled.EMPTY_BUFFER);
    }

    private Object keyed(TextMemcacheCommand command, ByteBuf in, int[] t, int count, int lineStart, int lineEnd) {
        int fixed = command == TextMemcacheCommand.DELETE ? 2 : 3;
        arity(count == fixed || count == fixed + 1, in, lineStart, lineEnd);
        String key = TextWire.key(in, t[2], t[3]);
        int exptime = command == TextMemcacheCommand.TOUCH ? TextWire.exptime(in, t[4], t[5]) : 0;
        long delta = command == TextMemcacheCommand.INCR || command == TextMemcacheCommand.DECR
                ? TextWire.unsigned(in, t[4], t[5], -1L, "incr/decr value") : 0;
        return new TextMemcacheRequest(command, List.of(key), 0, exptime, 0, delta, noreply(in, t, count, fixed),
                Unpooled.EMPTY_BUFFER);
    }

    private static boolean noreply(ByteBuf in, int[] t, int count, int fixed) {
        if (count == fixed) {
            return false;
        }
        int at = 2 * fixed;
        if (!TextWire.is(in, t[at], t[at + 1], NOREPLY)) {
            throw TextWire.bad("last word (noreply expected)", in, t[at], t[at + 1]);
        }
        return true;
    }

    private static void arity(boolean fits, ByteBuf in, int lineStart, int lineEnd) {
        if (!fits) {
            throw TextWire.bad("command (wrong number of words)", in, lineStart, lineEnd);
        }
    }

    @Override
    Object withData(Object head, ByteBuf data) {
        return ((TextMemcacheRequest) head).replace(data);
    }
}
