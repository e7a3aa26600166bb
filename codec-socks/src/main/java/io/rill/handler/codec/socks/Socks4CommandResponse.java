package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * A SOCKS4 reply: {@code VN=0 | CD | DSTPORT (2) | DSTIP (4)}, eight bytes.
 *
 * @param status  granted or why not
 * @param address the IPv4 address the server reports (for BIND, where it listens), dotted quad
 * @param port    the port it reports, 0..65535
 */
public record Socks4CommandResponse(Socks4ReplyStatus status, String address, int port) implements SocksMessage {

    /**
     * Checks every field.
     *
     * @param status  granted or why not
     * @param address the IPv4 address the server reports (for BIND, where it listens), dotted quad
     * @param port    the port it reports, 0..65535
     */
    public Socks4CommandResponse {
        if (status == null) {
            throw new NullPointerException("status");
        }
        if (address == null || SocksWire.ipv4(address) == null) {
            throw new IllegalArgumentException("address: " + address + " (expected: an IPv4 literal)");
        }
        SocksWire.checkPort(port);
    }

    /**
     * A reply with address 0.0.0.0 and port 0, which is what a CONNECT reply usually carries.
     *
     * @param status the status
     */
    public Socks4CommandResponse(Socks4ReplyStatus status) {
        this(status, "0.0.0.0", 0);
    }

    @Override
    public void writeTo(ByteBuf out) {
        out.writeByte(0).writeByte(status.code()).writeShort(port).writeBytes(SocksWire.ipv4(address));
    }
}
