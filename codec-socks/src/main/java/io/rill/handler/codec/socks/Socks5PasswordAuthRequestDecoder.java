package io.rill.handler.codec.socks;

import io.rill.buffer.ByteBuf;

/** Server side: decodes one {@link Socks5PasswordAuthRequest} (RFC 1929); empty or non-UTF-8 names and passwords are refused. */
public final class Socks5PasswordAuthRequestDecoder extends SocksMessageDecoder {

    /** Creates the decoder. */
    public Socks5PasswordAuthRequestDecoder() {
    }

    @Override
    SocksMessage tryParse(ByteBuf in) {
        int start = in.readerIndex();
        int readable = in.readableBytes();
        if (readable < 1) {
            return null;
        }
        SocksVersions.check(in.getUnsignedByte(start), 1, "SOCKS5 username/password request");
        if (readable < 2) {
            return null;
        }
        int userLength = in.getUnsignedByte(start + 1);
        if (userLength == 0) {
            throw new SocksProtocolException("SOCKS5 username/password request: empty username (ULEN 0)");
        }
        if (readable < 2 + userLength + 1) {
            return null;
        }
        int passLength = in.getUnsignedByte(start + 2 + userLength);
        if (passLength == 0) {
            throw new SocksProtocolException("SOCKS5 username/password request: empty password (PLEN 0)");
        }
        int total = 3 + userLength + passLength;
        if (readable < total) {
            return null;
        }
        String username = SocksWire.readUtf8(in, start + 2, userLength, "SOCKS5 username");
        String password = SocksWire.readUtf8(in, start + 3 + userLength, passLength, "SOCKS5 password");
        in.skipBytes(total);
        return new Socks5PasswordAuthRequest(username, password);
    }
}
