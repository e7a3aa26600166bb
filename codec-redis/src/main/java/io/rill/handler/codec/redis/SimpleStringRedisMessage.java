package io.rill.handler.codec.redis;

/**
 * A RESP simple string ({@code +OK\r\n}): a short status text without CR or LF.
 *
 * @param content the text; it must not contain CR or LF, which would end the line early and let
 *                the rest be read as another reply
 */
public record SimpleStringRedisMessage(String content) implements RedisMessage {

    /** {@code +OK}, the reply of most writes. */
    public static final SimpleStringRedisMessage OK = new SimpleStringRedisMessage("OK");
    /** {@code +PONG}, the reply of {@code PING} without an argument. */
    public static final SimpleStringRedisMessage PONG = new SimpleStringRedisMessage("PONG");

    /**
     * Checks the content.
     *
     * @throws IllegalArgumentException if the content holds CR or LF
     *
     * @param content as above
     */
    public SimpleStringRedisMessage {
        RedisText.checkLine(content, "simple string");
    }
}
