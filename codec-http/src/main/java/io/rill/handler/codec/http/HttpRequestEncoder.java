package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/**
 * Encodes requests (see {@link HttpObjectEncoder}); an empty target is sent as {@code /}. A whole
 * request without content gets {@code Content-Length: 0} only when its method anticipates content
 * ({@code POST}, {@code PUT}, {@code PATCH} and methods this encoder does not know), never on a
 * {@code GET}, {@code HEAD}, {@code DELETE}, {@code OPTIONS}, {@code TRACE} or {@code CONNECT}
 * (RFC 9110 section 8.6).
 */
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

    @Override
    protected boolean anticipatesContent(HttpRequest head) {
        HttpMethod method = head.method();
        return !method.equals(HttpMethod.GET) && !method.equals(HttpMethod.HEAD) && !method.equals(HttpMethod.DELETE)
                && !method.equals(HttpMethod.OPTIONS) && !method.equals(HttpMethod.TRACE)
                && !method.equals(HttpMethod.CONNECT);
    }
}
