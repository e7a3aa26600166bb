package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/**
 * Server side: decodes one {@link Socks4CommandRequest} (SOCKS4 or 4a). The user id and the 4a host
 * name end with a NUL the client may never send, so each has a cap; past it the decoder fails with
 * a {@link SocksFieldTooLongException} without waiting for more.
 */
public final class Socks4CommandRequestDecoder extends SocksMessageDecoder {

    private static final int FIXED_LENGTH = 8;

    private final int maxUserIdLength;
    private final int maxHostnameLength;

    /** A decoder with both caps at 255 bytes. */
    public Socks4CommandRequestDecoder() {
        this(255, 255);
    }

    /**
     * A decoder with the given caps.
     *
     * @param maxUserIdLength   the longest user id accepted, in bytes, 0..255
     * @param maxHostnameLength the longest SOCKS4a host name accepted, in bytes, 1..255
     */
    public Socks4CommandRequestDecoder(int maxUserIdLength, int maxHostnameLength) {
        if (maxUserIdLength < 0 || maxUserIdLength > 255) {
            throw new IllegalArgumentException("maxUserIdLength: " + maxUserIdLength + " (expected: 0..255)");
        }
        if (maxHostnameLength < 1 || maxHostnameLength > 255) {
            throw new IllegalArgumentException("maxHostnameLength: " + maxHostnameLength + " (expected: 1..255)");
        }
        this.maxUserIdLength = maxUserIdLength;
        this.maxHostnameLength = maxHostnameLength;
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        int version = in.getUnsignedByte(start);
        if (version != 4) {
            throw new SocksProtocolException("SOCKS4 request: version " + version + " (expected: 4)");
        }
        if (readable < 2) {
            return null;
        }
        Socks4CommandType type = Socks4CommandType.of(in.getUnsignedByte(start + 1));
        if (readable < FIXED_LENGTH) {
            return null;
        }
        int port = in.getUnsignedShort(start + 2);
        int userIdStart = start + FIXED_LENGTH;
        int userIdLength = terminated(in, userIdStart, maxUserIdLength, "user id", "maxUserIdLength");
        if (userIdLength < 0) {
            return null;
        }
        String userId = SocksWire.readUtf8(in, userIdStart, userIdLength, "SOCKS4 request: user id");
        int end = userIdStart + userIdLength + 1;
        String host;
        boolean socks4a = in.getUnsignedByte(start + 4) == 0 && in.getUnsignedByte(start + 5) == 0
                && in.getUnsignedByte(start + 6) == 0 && in.getUnsignedByte(start + 7) != 0;
        if (socks4a) {
            int hostLength = terminated(in, end, maxHostnameLength, "SOCKS4a host name", "maxHostnameLength");
            if (hostLength < 0) {
                return null;
            }
            host = SocksWire.readHostname(in, end, hostLength, "SOCKS4a request");
            end += hostLength + 1;
        } else {
            host = SocksWire.formatIpv4(in, start + 4);
        }
        in.readerIndex(end);
        return new Socks4CommandRequest(type, host, port, userId);
    }

    /** The length of the NUL-terminated field at {@code index}, or -1 if its NUL has not arrived yet. */
    private static int terminated(ByteBuf in, int index, int max, String field, String setting) {
        int available = in.writerIndex() - index;
        int nul = in.bytesBefore(index, Math.min(available, max + 1), (byte) 0);
        if (nul >= 0) {
            return nul;
        }
        if (available > max) {
            throw new SocksFieldTooLongException("SOCKS4 request: " + field + " longer than " + max + " bytes ("
                    + setting + ")");
        }
        return -1;
    }
}
