package io.rill.handler.codec.http;

import io.rill.buffer.ByteBuf;
import io.rill.handler.codec.DecoderResult;

/** A piece of body. */
public class DefaultHttpContent implements HttpContent {

    private final ByteBuf content;
    private DecoderResult decoderResult = DecoderResult.SUCCESS;

    /**
     * A piece of body holding {@code content}.
     *
     * @param content the bytes; owned by this object from now on, released when it is
     * @throws NullPointerException if {@code content} is null
     */
    public DefaultHttpContent(ByteBuf content) {
        if (content == null) {
            throw new NullPointerException("content");
        }
        this.content = content;
    }

    @Override
    public ByteBuf content() {
        return content;
    }

    @Override
    public HttpContent replace(ByteBuf content) {
        return new DefaultHttpContent(content);
    }

    @Override
    public DecoderResult decoderResult() {
        return decoderResult;
    }

    @Override
    public void setDecoderResult(DecoderResult result) {
        if (result == null) {
            throw new NullPointerException("result");
        }
        this.decoderResult = result;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(data: " + content + ", decoderResult: " + decoderResult + ')';
    }
}
