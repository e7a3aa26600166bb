package io.rill.handler.codec.redis;

/**
 * A RESP error ({@code -ERR unknown command\r\n}); by convention the first word is the error's code.
 *
 * @param content the text; it must not contain CR or LF (see {@link SimpleStringRedisMessage})
 */
public record ErrorRedisMessage(String content) implements RedisMessage {

    /**
     * Checks the content.
     *
     * @throws IllegalArgumentException if the content holds CR or LF
     *
     * @param content as above
     */
    public ErrorRedisMessage {
        RedisText.checkLine(content, "error");
    }
}
