package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** A whole request: head, body and trailers. */
public class DefaultFullHttpRequest extends DefaultHttpRequest implements FullHttpRequest {

    private final ByteBuf content;
    private final HttpHeaders trailingHeaders;

    /**
     * A request with an empty body.
     *
     * @param version the HTTP version
     * @param method  the method
     * @param uri     the request target
     * @throws IllegalArgumentException if {@code uri} holds a character that could split the message
     */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri) {
        this(version, method, uri, Unpooled.EMPTY_BUFFER);
    }

    /**
     * A request with {@code content} as its body.
     *
     * @param version the HTTP version
     * @param method  the method
     * @param uri     the request target
     * @param content the body; owned by this request from now on, released when it is
     * @throws IllegalArgumentException if {@code uri} holds a character that could split the message
     */
    public DefaultFullHttpRequest(HttpVersion version, HttpMethod method, String uri, ByteBuf content) {
        this(version, method, uri, content, new HttpHeaders(), new HttpHeaders());
    }

    /**
     * A request with its own header and trailer objects.
     *
     * @param version         the HTTP version
     * @param method          the method
     * @param uri             the request target
     * @param content         the body; owned by this request from now on, released when it is
     * @param headers         the header fields
     * @param trailingHeaders the trailer fields
     * @throws IllegalArgumentException if {@code uri} holds a character that could split the message
     * @throws NullPointerException if an argument is null
     */
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
