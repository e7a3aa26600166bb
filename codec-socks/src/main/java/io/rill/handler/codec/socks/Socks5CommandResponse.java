package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * A SOCKS5 reply (RFC 1928 §6): {@code VER=5 | REP | RSV=0 | ATYP | BND.ADDR | BND.PORT}.
 *
 * @param status      the REP field
 * @param addressType the type of the bound address
 * @param host        the bound address the server reports
 * @param port        the bound port, 0..65535
 */
public record Socks5CommandResponse(Socks5CommandStatus status, Socks5AddressType addressType, String host, int port)
        implements SocksMessage {

    /**
     * Checks every field.
     *
     * @param status      the REP field
     * @param addressType the type of the bound address
     * @param host        the bound address the server reports
     * @param port        the bound port, 0..65535
     */
    public Socks5CommandResponse {
        if (status == null) {
            throw new NullPointerException("status");
        }
        Socks5Addresses.check(addressType, host);
        SocksWire.checkPort(port);
    }

    /**
     * A reply carrying 0.0.0.0:0 as its bound address, which is what a refusal carries.
     *
     * @param status the REP field
     */
    public Socks5CommandResponse(Socks5CommandStatus status) {
        this(status, Socks5AddressType.IPV4, "0.0.0.0", 0);
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(5).writeByte(status.code()).writeByte(0);
        Socks5Addresses.write(out, addressType, host, port);
    }
}
