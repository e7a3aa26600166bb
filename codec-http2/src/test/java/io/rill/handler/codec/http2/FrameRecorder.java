package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.Unpooled;

/** Parses the bytes a codec sent into a list of readable frame descriptions, for assertions. */
final class FrameRecorder implements Http2FrameListener {

    final List<String> frames = new ArrayList<>();
    final Http2FrameReader reader;
    private final ByteBuf pending = Unpooled.buffer();
    private boolean prefaceSkipped;
    private final boolean expectPreface;

    FrameRecorder(boolean expectPreface) {
        this(expectPreface, new TextFieldCodec());
    }

    FrameRecorder(boolean expectPreface, FieldBlockDecoder fields) {
        this.expectPreface = expectPreface;
        this.reader = new Http2FrameReader(fields, ByteBufAllocator.DEFAULT, 1 << 20);
        reader.maxFrameSize(Http2Settings.MAX_FRAME_SIZE_UPPER_BOUND);
    }

    /** Feeds {@code bytes} (released) and returns the frames completed by them. */
    List<String> feed(ByteBuf bytes) throws Http2Exception {
        pending.writeBytes(bytes);
        bytes.release();
        if (expectPreface && !prefaceSkipped && pending.readableBytes() >= 24) {
            pending.skipBytes(24);
            prefaceSkipped = true;
        }
        int from = frames.size();
        while (reader.readFrame(pending, this)) {
            // recorded by the callbacks
        }
        pending.discardReadBytes();
        return new ArrayList<>(frames.subList(from, frames.size()));
    }

    void release() {
        pending.release();
        reader.close();
    }

    @Override
    public void onData(int streamId, ByteBuf data, int flowControlled, boolean endStream) {
        frames.add("DATA " + streamId + " " + data.readableBytes() + (endStream ? " END_STREAM" : ""));
    }

    @Override
    public void onHeaders(int streamId, Http2Headers headers, boolean endStream) {
        frames.add("HEADERS " + streamId + " " + headers + (endStream ? " END_STREAM" : ""));
    }

    @Override
    public void onPriority(int streamId) {
        frames.add("PRIORITY " + streamId);
    }

    @Override
    public void onRstStream(int streamId, Http2Error error) {
        frames.add("RST_STREAM " + streamId + " " + error);
    }

    @Override
    public void onSettings(Http2Settings settings) {
        frames.add("SETTINGS " + settings);
    }

    @Override
    public void onSettingsAck() {
        frames.add("SETTINGS ACK");
    }

    @Override
    public void onPing(long data, boolean ack) {
        frames.add("PING " + data + (ack ? " ACK" : ""));
    }

    @Override
    public void onGoAway(int lastStreamId, Http2Error error, ByteBuf debugData) {
        frames.add("GOAWAY " + lastStreamId + " " + error);
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
        frames.add("WINDOW_UPDATE " + streamId + " " + increment);
    }

    @Override
    public void onUnknownFrame(int type, int streamId, int length) {
        frames.add("UNKNOWN " + type);
    }
}
