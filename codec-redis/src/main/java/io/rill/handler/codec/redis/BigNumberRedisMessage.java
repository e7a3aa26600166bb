package io.rill.handler.codec.redis;

import java.math.BigInteger;

/**
 * A RESP3 big number ({@code (3492890328409238509324850943850943825024385\r\n}), kept as its
 * decimal digits: {@link #toBigInteger()} converts on demand, so a decoder never spends the
 * (super-linear) conversion on a number nobody reads.
 *
 * @param digits an optional sign then one or more decimal digits
 */
public record BigNumberRedisMessage(String digits) implements RedisMessage {

    /**
     * Checks the digits.
     *
     * @throws IllegalArgumentException if {@code digits} is not an optional sign and decimal digits
     *
     * @param digits as above
     */
    public BigNumberRedisMessage {
        if (!RedisText.isInteger(digits)) {
            throw new IllegalArgumentException("big number " + RedisText.quote(digits)
                    + " (expected: an optional sign and decimal digits)");
        }
    }

    /**
     * Creates the message for {@code value}.
     *
     * @param value the number
     */
    public BigNumberRedisMessage(BigInteger value) {
        this(value.toString());
    }

    /** {@return the number} */
    public BigInteger toBigInteger() {
        return new BigInteger(digits);
    }
}
