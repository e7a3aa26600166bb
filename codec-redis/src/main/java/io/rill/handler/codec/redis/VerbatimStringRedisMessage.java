package io.rill.handler.codec.redis;

/**
 * A RESP3 verbatim string ({@code =15\r\ntxt:Some string\r\n}): text with a three-letter format,
 * {@code txt} or {@code mkd}, for a client to show as it is.
 *
 * @param format three characters, none of them {@code :}, CR or LF
 * @param text   the text, decoded as UTF-8
 */
public record VerbatimStringRedisMessage(String format, String text) implements RedisMessage {

    /**
     * Checks the format.
     *
     * @throws IllegalArgumentException if the format is not three characters without {@code :}, CR or LF
     *
     * @param format as above
     * @param text as above
     */
    public VerbatimStringRedisMessage {
        if (format.length() != 3 || format.indexOf(':') >= 0 || format.indexOf('\r') >= 0 || format.indexOf('\n') >= 0
                || format.chars().anyMatch(c -> c > 0x7f)) {
            throw new IllegalArgumentException("verbatim format " + RedisText.quote(format)
                    + " (expected: three ASCII characters, no ':')");
        }
        if (text == null) {
            throw new NullPointerException("text");
        }
    }
}
