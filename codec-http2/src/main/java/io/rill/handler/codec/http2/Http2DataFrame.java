package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ReferenceCounted;

/**
 * A piece of a stream's content (DATA frames). Reference counted through its content: whoever
 * holds the frame releases it once. Received content counts against the flow-control windows
 * until the application says it has consumed it ({@link Http2WindowUpdateFrame}), which is how a
 * slow consumer slows the sender down.
 *
 * @param streamId the stream
 * @param content the bytes; owned by the frame. Content sent is read without moving its indices,
 *        so one {@link io.rill.buffer.Unpooled#constantBuffer constant buffer} can be the content
 *        of any number of frames, like a fixed response body
 * @param flowControlled for a received frame, the bytes it counted against the windows (its
 *        payload with padding); for a frame to send, ignored (the content's size counts)
 * @param endStream whether this frame ends the sender's side of the stream
 */
public record Http2DataFrame(int streamId, ByteBuf content, int flowControlled, boolean endStream)
        implements Http2StreamFrame, ReferenceCounted {

    /**
     * A frame to send.
     *
     * @param streamId the stream
     * @param content the bytes; ownership passes to the frame
     * @param endStream whether this frame ends the sender's side of the stream
     */
    public Http2DataFrame(int streamId, ByteBuf content, boolean endStream) {
        this(streamId, content, content.readableBytes(), endStream);
    }

    @Override
    public int refCnt() {
        return content.refCnt();
    }

    @Override
    public Http2DataFrame retain() {
        content.retain();
        return this;
    }

    @Override
    public Http2DataFrame retain(int increment) {
        content.retain(increment);
        return this;
    }

    @Override
    public Http2DataFrame touch() {
        content.touch();
        return this;
    }

    @Override
    public Http2DataFrame touch(Object hint) {
        content.touch(hint);
        return this;
    }

    @Override
    public boolean release() {
        return content.release();
    }

    @Override
    public boolean release(int decrement) {
        return content.release(decrement);
    }
}
