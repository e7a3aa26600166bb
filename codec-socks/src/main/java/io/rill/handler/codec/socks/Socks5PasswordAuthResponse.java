package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * The server's verdict on username/password authentication (RFC 1929 §2): {@code VER=1 | STATUS},
 * where 0 is success and anything else a failure after which the server closes.
 *
 * @param status the STATUS byte, 0..255
 */
public record Socks5PasswordAuthResponse(int status) implements SocksMessage {

    /** The success answer. */
    public static final Socks5PasswordAuthResponse SUCCESS = new Socks5PasswordAuthResponse(0);
    /** A failure answer. */
    public static final Socks5PasswordAuthResponse FAILURE = new Socks5PasswordAuthResponse(1);

    /**
     * Checks the status.
     *
     * @param status the STATUS byte, 0..255
     */
    public Socks5PasswordAuthResponse {
        if (status < 0 || status > 0xFF) {
            throw new IllegalArgumentException("status: " + status + " (expected: 0..255)");
        }
    }

    /** {@return true if the credentials were accepted} */
    public boolean isSuccess() {
        return status == 0;
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(1).writeByte(status);
    }
}
