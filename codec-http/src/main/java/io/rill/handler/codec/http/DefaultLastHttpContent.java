package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;

/** The last piece of body, with trailer fields. */
public class DefaultLastHttpContent extends DefaultHttpContent implements LastHttpContent {

    private final HttpHeaders trailingHeaders;

    public DefaultLastHttpContent() {
        this(Unpooled.EMPTY_BUFFER);
    }

    public DefaultLastHttpContent(ByteBuf content) {
        this(content, new HttpHeaders());
    }

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
