package io.rill.handler.codec.socks;

import java.util.List;

import io.rill.buffer.ByteBuf;

/**
 * The SOCKS5 greeting a client opens with: {@code VER=5 | NMETHODS | METHODS...} (RFC 1928 §3).
 *
 * @param methods the authentication methods offered, 1 to 255 of them
 */
public record Socks5InitialRequest(List<Socks5AuthMethod> methods) implements SocksMessage {

    /**
     * Checks and copies the list.
     *
     * @param methods the authentication methods offered, 1 to 255 of them
     */
    public Socks5InitialRequest {
        methods = List.copyOf(methods);
        if (methods.isEmpty() || methods.size() > 255) {
            throw new IllegalArgumentException("methods: " + methods.size() + " (expected: 1..255)");
        }
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(5).writeByte(methods.size());
        for (Socks5AuthMethod method : methods) {
            out.writeByte(method.code());
        }
    }
}
