package io.rill.handler.codec.http2;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufHolder;

/**
 * A piece of a stream's content (DATA frames), held as a {@link ByteBufHolder}: whoever holds the
 * frame releases it once. Received content counts against the flow-control windows
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
        implements Http2StreamFrame, ByteBufHolder {

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

    /**
     * The same stream, flow-controlled count and end of stream around other content: a copy of a
     * received frame reports what the original counted against the windows, so consuming either
     * returns the same credit.
     *
     * @param content the new bytes; ownership passes to the new frame
     * @return the new frame; this one and its content are left as they were
     */
    @Override
    public Http2DataFrame replace(ByteBuf content) {
        return new Http2DataFrame(streamId, content, flowControlled, endStream);
    }

    @Override
    public Http2DataFrame copy() {
        return replace(content.copy());
    }

    @Override
    public Http2DataFrame duplicate() {
        return replace(content.duplicate());
    }

    @Override
    public Http2DataFrame retainedDuplicate() {
        return replace(content.retainedDuplicate());
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
}
