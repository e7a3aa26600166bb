package io.rill.handler.codec.redis;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/**
 * Splits an inline command line into its words the way Redis does ({@code sdssplitargs}): words
 * are separated by blanks; a word in double quotes may hold blanks and the escapes {@code \n \r \t
 * \b \a \\ \" \xHH}; in single quotes only {@code \'}. A closing quote must end the word. Each word
 * becomes a bulk string on the heap (a line is at most {@code maxInlineLength} bytes).
 */
final class InlineCommandSplitter {

    private InlineCommandSplitter() {
    }

    static List<RedisMessage> split(ByteBuf in, int from, int to) {
        List<RedisMessage> words = new ArrayList<>(4);
        try {
            return split(in, from, to, words);
        } catch (RedisCodecException e) {
            for (RedisMessage word : words) {
                ((FullBulkStringRedisMessage) word).release();
            }
            throw e;
        }
    }

    private static List<RedisMessage> split(ByteBuf in, int from, int to, List<RedisMessage> words) {
        byte[] word = new byte[to - from];
        int i = from;
        while (true) {
            while (i < to && isBlank(in.getByte(i))) {
                i++;
            }
            if (i == to) {
                return words;
            }
            int n = 0;
            byte quote = 0;
            for (; i < to; i++) {
                byte b = in.getByte(i);
                if (quote == 0) {
                    if (isBlank(b)) {
                        break;
                    } else if (b == '"' || b == '\'') {
                        quote = b;
                    } else {
                        word[n++] = b;
                    }
                } else if (b == quote) {
                    if (i + 1 < to && !isBlank(in.getByte(i + 1))) {
                        throw unbalanced(in, from, to, "a closing quote must end the word");
                    }
                    quote = 0;
                } else if (b == '\\' && i + 1 < to) {
                    i++;
                    n = escape(in, i, to, quote, word, n);
                    if (quote == '"' && in.getByte(i) == 'x' && isHexEscape(in, i, to)) {
                        i += 2;
                    }
                } else {
                    word[n++] = b;
                }
            }
            if (quote != 0) {
                throw unbalanced(in, from, to, "unbalanced quotes");
            }
            words.add(new FullBulkStringRedisMessage(Unpooled.copiedBuffer(word, 0, n)));
        }
    }

    /** Writes the escaped byte at {@code i} (after a backslash) into {@code word}; returns the new length. */
    private static int escape(ByteBuf in, int i, int to, byte quote, byte[] word, int n) {
        byte b = in.getByte(i);
        if (quote == '\'') {
            if (b != '\'') {
                word[n++] = '\\'; // single quotes keep every other backslash
            }
            word[n++] = b;
            return n;
        }
        word[n++] = switch (b) {
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            case 'b' -> '\b';
            case 'a' -> 7;
            case 'x' -> isHexEscape(in, i, to)
                    ? (byte) (Character.digit(in.getByte(i + 1), 16) << 4 | Character.digit(in.getByte(i + 2), 16))
                    : b;
            default -> b;
        };
        return n;
    }

    private static boolean isHexEscape(ByteBuf in, int i, int to) {
        return i + 2 < to && Character.digit(in.getByte(i + 1), 16) >= 0 && Character.digit(in.getByte(i + 2), 16) >= 0;
    }

    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n' || b == '\f' || b == 0x0b;
    }

    private static RedisCodecException unbalanced(ByteBuf in, int from, int to, String why) {
        return new RedisCodecException("inline command " + RedisText.quote(in, from, to - from) + ": " + why);
    }
}
