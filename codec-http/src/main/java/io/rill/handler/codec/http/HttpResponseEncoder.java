package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;

/**
 * Encodes responses (see {@link HttpObjectEncoder}). 1xx, 204 and 304 responses never carry a
 * body; {@link HttpServerCodec} also tells it which responses answer HEAD.
 */
public class HttpResponseEncoder extends HttpObjectEncoder<HttpResponse> {

    @Override
    protected void encodeStartLine(ByteBuf buf, HttpResponse response) {
        response.protocolVersion().encode(buf);
        buf.writeByte(' ');
        response.status().encode(buf);
        writeCrlf(buf);
    }

    @Override
    protected boolean mayHaveContentLength(HttpResponse response) {
        int code = response.status().code();
        return code >= 200 && code != 204 && code != 304;
    }

    @Override
    protected boolean isContentAlwaysEmpty(HttpResponse response) {
        int code = response.status().code();
        return code < 200 || code == 204 || code == 304;
    }
}
