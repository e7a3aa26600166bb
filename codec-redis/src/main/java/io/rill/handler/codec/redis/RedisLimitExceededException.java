package io.rill.handler.codec.redis;

/**
 * Input passed one of the {@link RedisLimits}: a declared length, a line, a nesting depth, an
 * element count or the bytes of one message. The message names the limit's setting, so an operator
 * knows what to raise if the input was legitimate.
 */
public class RedisLimitExceededException extends RedisCodecException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message what passed which limit, naming the setting
     */
    public RedisLimitExceededException(String message) {
        super(message);
    }
}
