package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A whole response: head, body and trailers. */
public class DefaultFullHttpResponse extends DefaultHttpResponse implements FullHttpResponse {

    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    /**
     * A response with an empty body.
     *
     * @param version the HTTP version
     * @param status  the status
     */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status) {
        this(version, status, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A response with {@code content} as its body.
     *
     * @param version the HTTP version
     * @param status  the status
     * @param content the body; owned by this response from now on, released when it is
     */
    public DefaultFullHttpResponse(HttpVersion version, HttpResponseStatus status, ByteBuf content) {
        this(version, status, content, new HttpHeaders(), new HttpHeaders());
    }

    /**
     * A response with its own header and trailer objects, e.g. read-only headers shared by many responses.
     *
     * @param version         the HTTP version
     * @param status          the status
     * @param content         the body; owned by this response from now on, released when it is
     * @param headers         the header fields
     * @param trailingHeaders the trailer fields
     * @throws NullPointerException if an argument is null
     */
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
