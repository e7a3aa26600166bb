package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * A SOCKS5 request (RFC 1928 §4): {@code VER=5 | CMD | RSV=0 | ATYP | DST.ADDR | DST.PORT}.
 *
 * @param type        the command
 * @param addressType how the destination travels; a {@link Socks5AddressType#DOMAIN} is resolved by the proxy
 * @param host        the destination: a literal of the address type, or a host name of 1 to 255 printable ASCII bytes
 * @param port        the destination port, 0..65535
 */
public record Socks5CommandRequest(Socks5CommandType type, Socks5AddressType addressType, String host, int port)
        implements SocksMessage {

    /**
     * Checks every field.
     *
     * @param type        the command
     * @param addressType how the destination travels; a {@link Socks5AddressType#DOMAIN} is resolved by the proxy
     * @param host        the destination: a literal of the address type, or a host name of 1 to 255 printable ASCII bytes
     * @param port        the destination port, 0..65535
     */
    public Socks5CommandRequest {
        if (type == null) {
            throw new NullPointerException("type");
        }
        Socks5Addresses.check(addressType, host);
        SocksWire.checkPort(port);
    }

    /**
     * A request whose address type follows from {@code host} ({@link Socks5AddressType#of(String)}).
     *
     * @param type the command
     * @param host an address literal or a host name
     * @param port the destination port
     */
    public Socks5CommandRequest(Socks5CommandType type, String host, int port) {
        this(type, Socks5AddressType.of(host), host, port);
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(5).writeByte(type.code()).writeByte(0);
        Socks5Addresses.write(out, addressType, host, port);
    }
}
