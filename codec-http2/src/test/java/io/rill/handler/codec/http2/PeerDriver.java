package io.rill.handler.codec.http2;

import java.util.ArrayList;
import java.util.List;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Plays the peer of an {@link EmbeddedChannel} that holds a codec: writes frames into it with an
 * {@link Http2FrameWriter} and reads what it sent as frame descriptions ({@link FrameRecorder}).
 */
final class PeerDriver {

    /** Writes frames into a buffer. */
    interface Frames {
        void write(ByteBuf out) throws Exception;
    }

    final Http2FrameWriter writer;
    private final EmbeddedChannel channel;
    private final FrameRecorder sent;
    private final boolean peerIsClient;

    /**
     * @param channel the channel under test
     * @param peerIsClient whether the peer plays the client (the channel holds a server codec)
     */
    PeerDriver(EmbeddedChannel channel, boolean peerIsClient) {
        this(channel, peerIsClient, new TextFieldCodec(), new TextFieldCodec());
    }

    /** A peer whose field blocks go through {@code encoder} and {@code decoder} (HPACK, for a codec built with it). */
    PeerDriver(EmbeddedChannel channel, boolean peerIsClient, FieldBlockEncoder encoder, FieldBlockDecoder decoder) {
        this.writer = new Http2FrameWriter(encoder);
        this.channel = channel;
        this.sent = new FrameRecorder(!peerIsClient, decoder);
        this.peerIsClient = peerIsClient;
    }

    /** The peer's preface and SETTINGS, and its ACK of ours; returns what the channel sent meanwhile. */
    List<String> handshake() throws Exception {
        ByteBuf out = Unpooled.buffer();
        if (peerIsClient) {
            Http2Frames.writePreface(out);
        }
        writer.writeSettings(out, new Http2Settings());
        writer.writeSettingsAck(out);
        channel.writeInbound(out);
        return outbound();
    }

    /** Releases every message the channel passed up. */
    void releaseInbound() {
        for (Object o; (o = channel.readInbound()) != null; ) {
            io.rill.buffer.ReferenceCountUtil.release(o);
        }
    }

    void inbound(Frames frames) throws Exception {
        ByteBuf out = Unpooled.buffer();
        frames.write(out);
        channel.writeInbound(out);
    }

    /** The frames the channel sent since the last call. */
    List<String> outbound() throws Exception {
        List<String> frames = new ArrayList<>();
        for (ByteBuf b; (b = channel.readOutbound()) != null; ) {
            frames.addAll(sent.feed(b));
        }
        return frames;
    }

    void release() {
        sent.release();
    }

    static Http2Headers request(String method, String path) {
        return new Http2Headers().method(method).scheme("http").authority("localhost").path(path);
    }
}
