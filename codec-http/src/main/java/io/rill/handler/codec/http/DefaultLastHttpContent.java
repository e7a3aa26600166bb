package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** The last piece of body, with trailer fields. */
public class DefaultLastHttpContent extends DefaultHttpContent implements LastHttpContent {

    private final HttpHeaders trailingHeaders;

    /** An empty last piece without trailers. */
    public DefaultLastHttpContent() {
        this(Unpooled.EMPTY_BUFFER);
    }

    /**
     * A last piece with {@code content} and no trailers.
     *
     * @param content the body bytes; owned by this object from now on
     */
    public DefaultLastHttpContent(ByteBuf content) {
        this(content, new HttpHeaders());
    }

    /**
     * A last piece with {@code content} and trailers.
     *
     * @param content         the body bytes; owned by this object from now on
     * @param trailingHeaders the trailer fields; not null
     * @throws NullPointerException if an argument is null
     */
    public DefaultLastHttpContent(ByteBuf content, HttpHeaders trailingHeaders) {
        super(content);
        if (trailingHeaders == null) {
            throw new NullPointerException("trailingHeaders");
        }
        this.trailingHeaders = trailingHeaders;
    }

    @Override
    public HttpHeaders trailingHeaders() {
        return trailingHeaders;
    }

    @Override
    public LastHttpContent replace(ByteBuf content) {
        return new DefaultLastHttpContent(content, trailingHeaders.copy());
    }
}
