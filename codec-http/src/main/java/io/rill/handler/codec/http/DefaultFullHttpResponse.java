package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A whole response: head, body and trailers. */
public class DefaultFullHttpResponse extends DefaultHttpResponse implements FullHttpResponse {

    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, Unpooled.EMPTY_BUFFER);
    }

    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content) {
        this(version, status, content, new HttpHeaders(), new HttpHeaders());
    }

    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content,
                                   HttpHeaders headers, HttpHeaders trailingHeaders) {
        super(version, status, headers);
        if (content == null || trailingHeaders == null) {
            throw new NullPointerException(content == null ? "content" : "trailingHeaders");
        }
        this.content = content;
        this.trailingHeaders = trailingHeaders;
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public HttpHeaders trailingHeaders() {
        return trailingHeaders;
    }

    @Override
    public FullHttpResponse replace(ByteBuf content) {
        DefaultFullHttpResponse copy = new DefaultFullHttpResponse(protocolVersion(), status(), content,
                headers().copy(), trailingHeaders.copy());
        copy.setDecoderResult(decoderResult());
        return copy;
    }

    @Override
    public DefaultFullHttpResponse setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public String toString() {
        return super.toString() + "\n[" + content.readableBytes() + " bytes]";
    }
}
