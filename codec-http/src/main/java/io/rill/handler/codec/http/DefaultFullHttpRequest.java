package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A whole request: head, body and trailers. */
public class DefaultFullHttpRequest extends DefaultHttpRequest implements FullHttpRequest {

    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri) {
        this(version, method, uri, Unpooled.EMPTY_BUFFER);
    }

    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content) {
        this(version, method, uri, content, new HttpHeaders(), new HttpHeaders());
    }

    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content,
                                  HttpHeaders headers, HttpHeaders trailingHeaders) {
        super(version, method, uri, headers);
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
    public FullHttpRequest replace(ByteBuf content) {
        DefaultFullHttpRequest copy = new DefaultFullHttpRequest(protocolVersion(), method(), uri(), content,
                headers().copy(), trailingHeaders.copy());
        copy.setDecoderResult(decoderResult());
        return copy;
    }

    @Override
    public DefaultFullHttpRequest setProtocolVersion(HttpVersion version) {
        super.setProtocolVersion(version);
        return this;
    }

    @Override
    public String toString() {
        return super.toString() + "\n[" + content.readableBytes() + " bytes]";
    }
}
