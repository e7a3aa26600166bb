package io.rill.handler.codec.http2;

import static io.rill.handler.codec.http2.Http2Frames.CONTINUATION;
import static io.rill.handler.codec.http2.Http2Frames.DATA;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_ACK;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_END_HEADERS;
import static io.rill.handler.codec.http2.Http2Frames.FLAG_END_STREAM;
import static io.rill.handler.codec.http2.Http2Frames.GOAWAY;
import static io.rill.handler.codec.http2.Http2Frames.HEADERS;
import static io.rill.handler.codec.http2.Http2Frames.HEADER_LENGTH;
import static io.rill.handler.codec.http2.Http2Frames.PING;
import static io.rill.handler.codec.http2.Http2Frames.RST_STREAM;
import static io.rill.handler.codec.http2.Http2Frames.SETTINGS;
import static io.rill.handler.codec.http2.Http2Frames.WINDOW_UPDATE;
import static io.rill.handler.codec.http2.Http2Frames.writeHeader;

import io.rill.buffer.ByteBuf;

/**
 * Writes frames into a buffer the caller owns, so that everything one flush sends goes out in
 * as few buffers as possible. Nothing is allocated per frame, except when a field block is larger
 * than the peer's maximum frame size and must be split into CONTINUATION frames.
 *
 * <p>Not thread-safe; used on one channel's event loop.
 */
final class Http2FrameWriter {

    private final FieldBlockEncoder fieldEncoder;
    /** The largest payload the peer accepts: its SETTINGS_MAX_FRAME_SIZE. */
    private int maxFrameSize = Http2Settings.DEFAULT_MAX_FRAME_SIZE;

    Http2FrameWriter(FieldBlockEncoder fieldEncoder) {
        this.fieldEncoder = fieldEncoder;
    }

    void maxFrameSize(int size) {
        maxFrameSize = size;
    }

    int maxFrameSize() {
        return maxFrameSize;
    }

    /** The peer's SETTINGS_HEADER_TABLE_SIZE: the most our field encoder's dynamic table may use. */
    void maxHeaderTableSize(long size) {
        fieldEncoder.maxTableSize(size);
    }

    /**
     * A HEADERS frame, followed by CONTINUATION frames if the block is larger than one frame.
     * The block is encoded in place after a reserved frame header, and moved only when it must
     * be split.
     */
    void writeHeaders(ByteBuf out, int streamId, Http2Headers headers, boolean endStream) throws Http2Exception {
        int headerAt = out.writerIndex();
        out.writeZero(HEADER_LENGTH);
        fieldEncoder.encode(headers, out);
        int blockLength = out.writerIndex() - headerAt - HEADER_LENGTH;
        int endStreamFlag = endStream ? FLAG_END_STREAM : 0;
        if (blockLength <= maxFrameSize) {
            out.setMedium(headerAt, blockLength);
            out.setByte(headerAt + 3, HEADERS);
            out.setByte(headerAt + 4, endStreamFlag | FLAG_END_HEADERS);
            out.setInt(headerAt + 5, streamId);
            return;
        }
        ByteBuf block = out.alloc().buffer(blockLength);
        try {
            block.writeBytes(out, headerAt + HEADER_LENGTH, blockLength);
            out.writerIndex(headerAt);
            int first = maxFrameSize;
            writeHeader(out, first, HEADERS, endStreamFlag, streamId);
            out.writeBytes(block, first);
            while (block.isReadable()) {
                int n = Math.min(maxFrameSize, block.readableBytes());
                writeHeader(out, n, CONTINUATION, n == block.readableBytes() ? FLAG_END_HEADERS : 0, streamId);
                out.writeBytes(block, n);
            }
        } finally {
            block.release();
        }
    }

    /** The header of a DATA frame whose {@code length} payload bytes the caller writes next. */
    void writeDataHeader(ByteBuf out, int streamId, int length, boolean endStream) {
        writeHeader(out, length, DATA, endStream ? FLAG_END_STREAM : 0, streamId);
    }

    void writeSettings(ByteBuf out, Http2Settings settings) {
        writeHeader(out, settings.size() * 6, SETTINGS, 0, 0);
        settings.forEach((id, value) -> {
            out.writeShort(id);
            out.writeInt((int) value);
        });
    }

    void writeSettingsAck(ByteBuf out) {
        writeHeader(out, 0, SETTINGS, FLAG_ACK, 0);
    }

    void writePing(ByteBuf out, long data, boolean ack) {
        writeHeader(out, 8, PING, ack ? FLAG_ACK : 0, 0);
        out.writeLong(data);
    }

    void writeRstStream(ByteBuf out, int streamId, Http2Error error) {
        writeHeader(out, 4, RST_STREAM, 0, streamId);
        out.writeInt(error.code());
    }

    /** GOAWAY with {@code debug} as its debug data (US-ASCII, cut to 256 bytes). */
    void writeGoAway(ByteBuf out, int lastStreamId, Http2Error error, String debug) {
        int debugLength = Math.min(debug.length(), 256);
        writeHeader(out, 8 + debugLength, GOAWAY, 0, 0);
        out.writeInt(lastStreamId);
        out.writeInt(error.code());
        for (int i = 0; i < debugLength; i++) {
            char c = debug.charAt(i);
            out.writeByte(c < 0x80 ? c : '?');
        }
    }

    void writeWindowUpdate(ByteBuf out, int streamId, int increment) {
        writeHeader(out, 4, WINDOW_UPDATE, 0, streamId);
        out.writeInt(increment);
    }
}
