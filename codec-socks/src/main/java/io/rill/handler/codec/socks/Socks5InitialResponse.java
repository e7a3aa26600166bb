package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * The server's choice of authentication method: {@code VER=5 | METHOD} (RFC 1928 §3).
 *
 * @param method the method chosen, or {@link Socks5AuthMethod#NO_ACCEPTABLE_METHODS}
 */
public record Socks5InitialResponse(Socks5AuthMethod method) implements SocksMessage {

    /**
     * Checks the method.
     *
     * @param method the method chosen, or {@link Socks5AuthMethod#NO_ACCEPTABLE_METHODS}
     */
    public Socks5InitialResponse {
        if (method == null) {
            throw new NullPointerException("method");
        }
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(5).writeByte(method.code());
    }
}
