package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.Http2Frames.CONTINUATION;
import static io.rill.handler.codec.http2.Http2Frames.DATA;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_ACK;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_END_HEADERS;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_END_STREAM;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_PADDED;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_PRIORITY;
import static io.rill.handler.codec.http2.Http2Frames.GOAWAY;
import static io.rill.handler.codec.http2.Http2Frames.HEADERS;
import static io.rill.handler.codec.http2.Http2Frames.HEADER_LENGTH;
import static io.rill.handler.codec.http2.Http2Frames.PING;
import static io.rill.handler.codec.http2.Http2Frames.PRIORITY;
import static io.rill.handler.codec.http2.Http2Frames.PUSH_PROMISE;
import static io.rill.handler.codec.http2.Http2Frames.RST_STREAM;
import static io.rill.handler.codec.http2.Http2Frames.SETTINGS;
import static io.rill.handler.codec.http2.Http2Frames.WINDOW_UPDATE;
import static io.rill.handler.codec.http2.Http2Frames.typeName;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;

/**
 * Parses frames out of the bytes that follow the connection preface and checks the rules RFC
 * 9113 §4 and §6 set for each frame alone: the size limit, which types may and may not use stream
 * 0, fixed payload lengths, padding, and that a field block's CONTINUATION frames follow its
 * HEADERS with nothing in between. It joins a field block's fragments and decodes it, then hands
 * every frame to an {@link Http2FrameListener}.
 *
 * <p>Memory is bounded: a frame is read only when whole and never larger than the maximum frame
 * size; a field block's fragments are kept up to {@link #maxFieldBlockCharge}, where every
 * CONTINUATION frame also costs a fixed charge, so a flood of empty ones ends too.
 *
 * <p>Not thread-safe; used on one channel's event loop.
 */
final class Http2FrameReader {

    /**
     * What each CONTINUATION frame costs against the field-block bound besides its bytes, so
     * that empty ones cannot go on for ever: with the default 8 KiB header list, a block ends
     * after at most 24 of them.
     */
    private static final int CONTINUATION_CHARGE = 512;

    private final FieldBlockDecoder fieldDecoder;
    private final ByteBufAllocator alloc;
    /** The largest payload accepted: our SETTINGS_MAX_FRAME_SIZE. */
    private int maxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;
    /** The most a field block's fragments (plus the per-frame charge) may add up to. */
    private long maxFieldBlockCharge;

    /** The stream whose field block is being joined, or 0 outside one. */
    private int blockStreamId;
    private boolean blockEndStream;
    /** A stream error found in the HEADERS frame, thrown once the block is decoded (HPACK must stay in sync). */
    private Http2Exception blockStreamError;
    /** The fragments so far; null until a second fragment arrives (one-frame blocks are decoded in place). */
    private ByteBuf blockFragments;
    private long blockCharge;
    /** How many fields the last block decoded to; bounded by the header list size limit. */
    private int lastBlockFields = 8;

    Http2FrameReader(FieldBlockDecoder fieldDecoder, ByteBufAllocator alloc, long maxFieldBlockCharge) {
        this.fieldDecoder = fieldDecoder;
        this.alloc = alloc;
        this.maxFieldBlockCharge = maxFieldBlockCharge;
    }

    void maxFrameSize(int size) {
        maxFrameSize = size;
    }

    /** The stream whose field block is unfinished (HEADERS read, CONTINUATION awaited), or 0. */
    int fieldBlockStreamId() {
        return blockStreamId;
    }

    /**
     * Reads one frame from {@code in} if it holds a whole one, checks it and passes it on.
     *
     * @return whether a frame was read; {@code false} when more bytes are needed
     * @throws Http2Exception a connection error, after which nothing more may be read, or a stream
     *         error, after which reading may go on with the next frame (this one was consumed)
     */
    boolean readFrame(ByteBuf in, Http2FrameListener listener) throws Http2Exception {
        if (in.readableBytes() < HEADER_LENGTH) {
            return false;
        }
        int at = in.readerIndex();
        int length = in.getUnsignedMedium(at);
        int type = in.getUnsignedByte(at + 3);
        int flags = in.getUnsignedByte(at + 4);
        int streamId = in.getInt(at + 5) & 0x7FFF_FFFF;
        if (length > maxFrameSize) {
            // Any frame: a too-large one may carry a field block or alter connection state (§4.2).
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR, typeName(type) + " frame of "
                    + length + " bytes exceeds SETTINGS_MAX_FRAME_SIZE " + maxFrameSize);
        }
        if (blockStreamId != 0 && (type != CONTINUATION || streamId != blockStreamId)) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " on stream " + streamId
                    + " in the middle of stream " + blockStreamId + "'s field block (expected CONTINUATION)");
        }
        if (in.readableBytes() < HEADER_LENGTH + length) {
            return false;
        }
        in.skipBytes(HEADER_LENGTH);
        int end = in.readerIndex() + length;
        int limit = in.writerIndex();
        // The payload is read in place: for as long as the frame is read, the buffer ends where the
        // frame does, which bounds every read as a slice would without a slice object per frame.
        // Whatever the frame's reader did or threw, the buffer then stands at the next frame.
        in.writerIndex(end);
        try {
            readPayload(type, flags, streamId, length, in, listener);
        } finally {
            in.writerIndex(limit);
            in.readerIndex(end);
        }
        return true;
    }

    private void readPayload(int type, int flags, int streamId, int length, ByteBuf payload,
            Http2FrameListener listener) throws Http2Exception {
        switch (type) {
            case DATA -> readData(streamId, flags, payload, listener);
            case HEADERS -> readHeaders(streamId, flags, payload, listener);
            case PRIORITY -> readPriority(streamId, payload, listener);
            case RST_STREAM -> readRstStream(streamId, payload, listener);
            case SETTINGS -> readSettings(streamId, flags, payload, listener);
            case PUSH_PROMISE -> throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "PUSH_PROMISE received, but this endpoint disabled push (SETTINGS_ENABLE_PUSH 0)");
            case PING -> readPing(streamId, flags, payload, listener);
            case GOAWAY -> readGoAway(streamId, payload, listener);
            case WINDOW_UPDATE -> readWindowUpdate(streamId, payload, listener);
            case CONTINUATION -> readContinuation(streamId, flags, payload, listener);
            default -> listener.onUnknownFrame(type, streamId, length);
        }
    }

    /** Releases a partly joined field block; call when the channel goes away. */
    void close() {
        if (blockFragments != null) {
            blockFragments.release();
            blockFragments = null;
        }
        blockStreamId = 0;
    }

    private void readData(int streamId, int flags, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireStream(streamId, DATA);
        int flowControlled = payload.readableBytes();
        ByteBuf data = stripPadding(flags, payload, DATA);
        listener.onData(streamId, data, flowControlled, (flags & FLAG_END_STREAM) != 0);
    }

    private void readHeaders(int streamId, int flags, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireStream(streamId, HEADERS);
        ByteBuf fragment = stripPadding(flags, payload, HEADERS);
        Http2Exception streamError = null;
        if ((flags & FLAG_PRIORITY) != 0) {
            if (fragment.readableBytes() < 5) {
                // Padding that leaves no room for what must precede the fragment (RFC 9113 §6.2).
                throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                        "HEADERS on stream " + streamId + " too short for its priority fields");
            }
            int dependency = fragment.readInt() & 0x7FFF_FFFF;
            fragment.skipBytes(1); // weight
            if (dependency == streamId) {
                streamError = Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR,
                        "stream " + streamId + " depends on itself (RFC 9113 §5.3.1)");
            }
        }
        blockStreamId = streamId;
        blockEndStream = (flags & FLAG_END_STREAM) != 0;
        blockStreamError = streamError;
        blockCharge = fragment.readableBytes();
        checkBlockCharge();
        if ((flags & FLAG_END_HEADERS) != 0) {
            endBlock(fragment, listener);
        } else {
            blockFragments = alloc.buffer(Math.max(256, fragment.readableBytes() * 2));
            blockFragments.writeBytes(fragment);
        }
    }

    private void readContinuation(int streamId, int flags, ByteBuf payload, Http2FrameListener listener)
            throws Http2Exception {
        if (blockStreamId == 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    "CONTINUATION on stream " + streamId + " without a HEADERS frame before it");
        }
        blockCharge += payload.readableBytes() + CONTINUATION_CHARGE;
        checkBlockCharge();
        blockFragments.writeBytes(payload);
        if ((flags & FLAG_END_HEADERS) != 0) {
            ByteBuf block = blockFragments;
            blockFragments = null;
            try {
                endBlock(block, listener);
            } finally {
                block.release();
            }
        }
    }

    /** Decodes a whole field block, then reports it (or the stream error its HEADERS frame had). */
    private void endBlock(ByteBuf block, Http2FrameListener listener) throws Http2Exception {
        int streamId = blockStreamId;
        boolean endStream = blockEndStream;
        Http2Exception streamError = blockStreamError;
        blockStreamId = 0;
        blockStreamError = null;
        // A peer's blocks tend to repeat (same client, same kind of request): sized like the last one,
        // the field array is made once at the right size instead of grown.
        Http2Headers headers = new Http2Headers(lastBlockFields);
        fieldDecoder.decode(streamId, block, headers);
        lastBlockFields = headers.size();
        if (streamError != null) {
            throw streamError;
        }
        listener.onHeaders(streamId, headers, endStream);
    }

    private void checkBlockCharge() throws Http2Exception {
        if (blockCharge > maxFieldBlockCharge) {
            throw Http2Exception.connectionError(Http2Error.ENHANCE_YOUR_CALM, "the field block of stream "
                    + blockStreamId + " exceeds " + maxFieldBlockCharge + " bytes (CONTINUATION frames count "
                    + CONTINUATION_CHARGE + " bytes each besides their payload)");
        }
    }

    private void readPriority(int streamId, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireStream(streamId, PRIORITY);
        if (payload.readableBytes() != 5) {
            throw Http2Exception.streamError(streamId, Http2Error.FRAME_SIZE_ERROR,
                    "PRIORITY frame of " + payload.readableBytes() + " bytes (must be 5)");
        }
        int dependency = payload.readInt() & 0x7FFF_FFFF;
        if (dependency == streamId) {
            throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR,
                    "stream " + streamId + " depends on itself (RFC 9113 §5.3.1)");
        }
        listener.onPriority(streamId);
    }

    private void readRstStream(int streamId, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireStream(streamId, RST_STREAM);
        requireLength(payload, 4, RST_STREAM);
        listener.onRstStream(streamId, Http2Error.valueOf(payload.readUnsignedInt()));
    }

    private void readSettings(int streamId, int flags, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireConnection(streamId, SETTINGS);
        int length = payload.readableBytes();
        if ((flags & FLAG_ACK) != 0) {
            if (length != 0) {
                throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                        "SETTINGS acknowledgement with a payload of " + length + " bytes");
            }
            listener.onSettingsAck();
            return;
        }
        if (length % 6 != 0) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                    "SETTINGS payload of " + length + " bytes is not a multiple of 6");
        }
        Http2Settings settings = new Http2Settings();
        while (payload.isReadable()) {
            settings.put(payload.readUnsignedShort(), payload.readUnsignedInt());
        }
        listener.onSettings(settings);
    }

    private void readPing(int streamId, int flags, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireConnection(streamId, PING);
        if (payload.readableBytes() != 8) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                    "PING of " + payload.readableBytes() + " bytes (must be 8)");
        }
        listener.onPing(payload.readLong(), (flags & FLAG_ACK) != 0);
    }

    private void readGoAway(int streamId, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        requireConnection(streamId, GOAWAY);
        if (payload.readableBytes() < 8) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                    "GOAWAY of " + payload.readableBytes() + " bytes (at least 8)");
        }
        int lastStreamId = payload.readInt() & 0x7FFF_FFFF;
        listener.onGoAway(lastStreamId, Http2Error.valueOf(payload.readUnsignedInt()), payload);
    }

    private void readWindowUpdate(int streamId, ByteBuf payload, Http2FrameListener listener) throws Http2Exception {
        if (payload.readableBytes() != 4) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                    "WINDOW_UPDATE of " + payload.readableBytes() + " bytes (must be 4)");
        }
        int increment = payload.readInt() & 0x7FFF_FFFF;
        if (increment == 0) {
            String message = "WINDOW_UPDATE with an increment of 0 (RFC 9113 §6.9)";
            throw streamId == 0 ? Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, message)
                    : Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, message);
        }
        listener.onWindowUpdate(streamId, increment);
    }

    /** Skips the pad length octet and ends the payload before the padding (RFC 9113 §6.1): what remains is the content. */
    private static ByteBuf stripPadding(int flags, ByteBuf payload, int type) throws Http2Exception {
        if ((flags & FLAG_PADDED) == 0) {
            return payload;
        }
        if (!payload.isReadable()) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR,
                    typeName(type) + " with the PADDED flag but no pad length");
        }
        int padding = payload.readUnsignedByte();
        if (padding > payload.readableBytes()) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " padding of "
                    + padding + " bytes is not shorter than the payload");
        }
        payload.writerIndex(payload.writerIndex() - padding);
        return payload;
    }

    private static void requireStream(int streamId, int type) throws Http2Exception {
        if (streamId == 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR, typeName(type) + " on stream 0");
        }
    }

    private static void requireConnection(int streamId, int type) throws Http2Exception {
        if (streamId != 0) {
            throw Http2Exception.connectionError(Http2Error.PROTOCOL_ERROR,
                    typeName(type) + " on stream " + streamId + " (it belongs to stream 0)");
        }
    }

    private static void requireLength(ByteBuf payload, int length, int type) throws Http2Exception {
        if (payload.readableBytes() != length) {
            throw Http2Exception.connectionError(Http2Error.FRAME_SIZE_ERROR, typeName(type) + " of "
                    + payload.readableBytes() + " bytes (must be " + length + ")");
        }
    }
}
