package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * A message of a SOCKS4 or SOCKS5 handshake. Each message checks its fields when it is built, so
 * every message can be written: {@link SocksMessageEncoder} only calls {@link #writeTo}.
 */
public sealed interface SocksMessage permits Socks4CommandRequest, Socks4CommandResponse, Socks5InitialRequest,
        Socks5InitialResponse, Socks5PasswordAuthRequest, Socks5PasswordAuthResponse, Socks5CommandRequest,
        Socks5CommandResponse {

    /**
     * Writes this message in its wire format.
     *
     * @param out where the bytes go
     */
    void writeTo(ByteBuf out);
}
