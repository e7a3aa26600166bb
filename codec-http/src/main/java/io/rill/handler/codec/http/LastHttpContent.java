package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.handler.codec.DecoderResult;

/** The last piece of a message body, with the trailer fields of a chunked message (usually none). */
public interface LastHttpContent extends HttpContent {

    /** An empty last piece with no trailers; shared, immutable, and never released. */
    LastHttpContent EMPTY_LAST_CONTENT = new LastHttpContent() {
        @Override
        public ByteBuf content() {
            return Unpooled.EMPTY_BUFFER;
        }

        @Override
        public HttpHeaders trailingHeaders() {
            return HttpHeaders.EMPTY;
        }

        @Override
        public LastHttpContent replace(ByteBuf content) {
            return new DefaultLastHttpContent(content);
        }

        @Override
        public DecoderResult decoderResult() {
            return DecoderResult.SUCCESS;
        }

        @Override
        public void setDecoderResult(DecoderResult result) {
            throw new UnsupportedOperationException("EMPTY_LAST_CONTENT is shared and immutable");
        }

        @Override
        public String toString() {
            return "EmptyLastHttpContent";
        }
    };

    /**
     * The trailer fields sent after a chunked body; empty for most messages.
     *
     * @return the trailer fields
     */
    HttpHeaders trailingHeaders();

    @Override
    LastHttpContent replace(ByteBuf content);

    @Override
    default LastHttpContent retain() {
        content().retain();
        return this;
    }

    @Override
    default LastHttpContent touch(Object hint) {
        content().touch(hint);
        return this;
    }
}
