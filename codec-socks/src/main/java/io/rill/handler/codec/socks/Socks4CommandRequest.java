package io.rill.handler.codec.socks;

import java.nio.charset.StandardCharsets;

import io.rill.buffer.ByteBuf;

/**
 * A SOCKS4 request, or a SOCKS4a one when {@code host} is a name rather than an IPv4 literal:
 * the name then travels unresolved, after the user id, behind the address 0.0.0.1.
 *
 * <pre>
 *   VN=4 | CD | DSTPORT (2) | DSTIP (4) | USERID ... | NUL | [4a: HOSTNAME ... | NUL]
 * </pre>
 *
 * @param type   the command
 * @param host   an IPv4 literal, or a host name (SOCKS4a): 1 to 255 printable ASCII bytes
 * @param port   the destination port, 0..65535
 * @param userId the user id, possibly empty; no NUL, at most 255 bytes of UTF-8
 */
public record Socks4CommandRequest(Socks4CommandType type, String host, int port, String userId)
        implements SocksMessage {

    /**
     * Checks every field.
     *
     * @param type   the command
     * @param host   an IPv4 literal, or a host name (SOCKS4a): 1 to 255 printable ASCII bytes
     * @param port   the destination port, 0..65535
     * @param userId the user id, possibly empty; no NUL, at most 255 bytes of UTF-8
     */
    public Socks4CommandRequest {
        if (type == null) {
            throw new NullPointerException("type");
        }
        SocksWire.checkHostname(host);
        SocksWire.checkPort(port);
        SocksWire.checkText(userId, "userId", 0);
        if (userId.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("userId: holds a NUL, which would end it on the wire");
        }
    }

    /** {@return true if the host travels as a name (SOCKS4a)} */
    public boolean isSocks4a() {
        return SocksWire.ipv4(host) == null;
    }

    @Override
    public void writeTo(ByteBuf out) {
        byte[] ipv4 = SocksWire.ipv4(host);
        out.writeByte(4).writeByte(type.code()).writeShort(port);
        if (ipv4 != null) {
            out.writeBytes(ipv4);
        } else {
            out.writeInt(1);
        }
        out.writeBytes(userId.getBytes(StandardCharsets.UTF_8)).writeByte(0);
        if (ipv4 == null) {
            out.writeBytes(host.getBytes(StandardCharsets.US_ASCII)).writeByte(0);
        }
    }
}
