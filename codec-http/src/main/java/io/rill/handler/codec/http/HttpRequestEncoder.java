package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/** Encodes requests (see {@link HttpObjectEncoder}); an empty target is sent as {@code /}. */
public class HttpRequestEncoder extends HttpObjectEncoder<HttpRequest> {

    @Override
    protected void encodeStartLine(ByteBuf buf, HttpRequest request) {
        request.method().encode(buf);
        buf.writeByte(' ');
        String uri = request.uri();
        writeAscii(buf, uri.isEmpty() ? "/" : uri);
        buf.writeByte(' ');
        request.protocolVersion().encode(buf);
        writeCrlf(buf);
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpRequest head) {
        return false;
    }
}
