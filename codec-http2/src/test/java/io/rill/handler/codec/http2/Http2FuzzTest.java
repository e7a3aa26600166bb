package io.rill.handler.codec.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufAllocator;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.ReferenceCountUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;

/**
 * Fuzz targets for HTTP/2 frames. {@code serverCodec}: the bytes after the client preface go to a
 * server {@link Http2FrameCodec}, whole and in pieces, which must pass on the same frames and end
 * (or not) the connection alike, letting nothing but a {@code DecoderException} escape.
 * {@code frameReader}: the frame parser alone with real HPACK; every frame it reads is written again
 * by {@link Http2FrameWriter} and read back the same, and no frame is over the maximum size. The
 * seeds hold the H2 inputs of docs/security-cases.md.
 */
class Http2FuzzTest {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @FuzzTest
    void serverCodec(byte[] input) {
        byte[] withPreface = new byte[input.length + PREFACE.length];
        if (input.length > 0) {
            withPreface[0] = input[0];
            System.arraycopy(PREFACE, 0, withPreface, 1, PREFACE.length);
            System.arraycopy(input, 1, withPreface, 1 + PREFACE.length, input.length - 1);
        }
        FuzzFeed.wholeAndPieces(withPreface, new FuzzFeed.Target(
                () -> new ChannelHandler[] {Http2FrameCodec.forServer().maxHeaderListSize(1024).build()},
                Http2FuzzTest::render,
                // Coalescing of what one flush writes follows the reads; the frames are checked elsewhere.
                FuzzFeed::ignore,
                t -> t instanceof DecoderException));
    }

    @FuzzTest
    void frameReader(byte[] input) throws Http2Exception {
        FuzzLeaks.assertNoneReported();
        Recording whole = read(List.of(FuzzInput.payload(input)));
        Recording pieces = read(FuzzInput.pieces(input));
        assertEquals(whole.frames, pieces.frames, "read whole and in pieces");
        assertEquals(whole.error, pieces.error, "the same error whole and in pieces");

        HpackEncoder encoder = new HpackEncoder(HpackEncoder.SensitivityPolicy.DEFAULT, 4096, true);
        Http2FrameWriter writer = new Http2FrameWriter(encoder::encode);
        ByteBuf out = Unpooled.buffer();
        try {
            for (FrameWrite w : whole.writes) {
                w.write(writer, out);
            }
            Recording again = read(List.of(ByteBufUtil.getBytes(out)));
            assertEquals(null, again.error, "frames the writer wrote read without error");
            assertEquals(rewritable(whole.frames), rewritable(again.frames), "read, write, read");
        } finally {
            out.release();
        }
    }

    /**
     * Frames the writer has no method for (PRIORITY, unknown types) are not written again, nor is
     * a field block that failed as a stream error: only its error was recorded.
     */
    private static List<String> rewritable(List<String> frames) {
        return frames.stream().filter(f -> !f.startsWith("PRIORITY") && !f.startsWith("UNKNOWN")
                && !f.startsWith("stream error")).toList();
    }

    @FunctionalInterface
    private interface FrameWrite {
        void write(Http2FrameWriter writer, ByteBuf out) throws Http2Exception;
    }

    /** What a reader saw: frames rendered, how to write each again, and the connection error if any. */
    private static final class Recording implements Http2FrameListener {
        final List<String> frames = new ArrayList<>();
        final List<FrameWrite> writes = new ArrayList<>();
        String error;

        @Override
        public void onData(int streamId, ByteBuf data, int flowControlled, boolean endStream) {
            assertTrue(data.readableBytes() <= Http2Settings.DEFAULT_MAX_FRAME_SIZE, "DATA over the frame size");
            byte[] bytes = ByteBufUtil.getBytes(data);
            frames.add("DATA " + streamId + " " + endStream + " " + ByteBufUtil.hexDump(bytes));
            writes.add((w, out) -> {
                w.writeDataHeader(out, streamId, bytes.length, endStream);
                out.writeBytes(bytes);
            });
        }

        @Override
        public void onHeaders(int streamId, Http2Headers headers, boolean endStream) {
            StringBuilder fields = new StringBuilder();
            headers.forEach((n, v) -> fields.append(n).append(": ").append(v).append('\n'));
            frames.add("HEADERS " + streamId + " " + endStream + " " + fields);
            writes.add((w, out) -> w.writeHeaders(out, streamId, headers, endStream));
        }

        @Override
        public void onPriority(int streamId) {
            frames.add("PRIORITY " + streamId);
        }

        @Override
        public void onRstStream(int streamId, Http2Error error) {
            frames.add("RST_STREAM " + streamId + " " + error);
            writes.add((w, out) -> w.writeRstStream(out, streamId, error));
        }

        @Override
        public void onSettings(Http2Settings settings) {
            frames.add("SETTINGS " + settings);
            writes.add((w, out) -> w.writeSettings(out, settings));
        }

        @Override
        public void onSettingsAck() {
            frames.add("SETTINGS_ACK");
            writes.add((w, out) -> w.writeSettingsAck(out));
        }

        @Override
        public void onPing(long data, boolean ack) {
            frames.add("PING " + data + " " + ack);
            writes.add((w, out) -> w.writePing(out, data, ack));
        }

        @Override
        public void onGoAway(int lastStreamId, Http2Error error, ByteBuf debugData) {
            String debug = debugData.toString(StandardCharsets.UTF_8);
            frames.add("GOAWAY " + lastStreamId + " " + error + " " + debug);
            // The writer takes the debug text as a string and writes US-ASCII (others as '?'), at
            // most 256 bytes: only such debug data is written back as it was read.
            boolean ascii = debugData.readableBytes() <= 256
                    && debugData.forEachByte(b -> b >= 0) == -1;
            if (ascii) {
                writes.add((w, out) -> w.writeGoAway(out, lastStreamId, error, debug));
            } else {
                frames.set(frames.size() - 1, "UNKNOWN goaway with non-UTF-8 debug data");
            }
        }

        @Override
        public void onWindowUpdate(int streamId, int increment) {
            frames.add("WINDOW_UPDATE " + streamId + " " + increment);
            writes.add((w, out) -> w.writeWindowUpdate(out, streamId, increment));
        }

        @Override
        public void onUnknownFrame(int type, int streamId, int length) {
            frames.add("UNKNOWN " + type + " " + streamId + " " + length);
        }
    }

    /** Reads frames from the pieces as a connection would, going on past stream errors. */
    private static Recording read(List<byte[]> pieces) {
        Recording recording = new Recording();
        HpackDecoder decoder = new HpackDecoder(1024, 4096);
        Http2FrameReader reader = new Http2FrameReader(decoder::decode, ByteBufAllocator.DEFAULT, 1024 + 4096);
        ByteBuf cumulation = Unpooled.buffer();
        try {
            for (byte[] piece : pieces) {
                cumulation.writeBytes(piece);
                while (true) {
                    try {
                        if (!reader.readFrame(cumulation, recording)) {
                            break;
                        }
                    } catch (Http2Exception e) {
                        if (!e.isStreamError()) {
                            recording.error = e.error() + " " + e.getClass().getSimpleName();
                            return recording;
                        }
                        recording.frames.add("stream error " + e.streamId() + " " + e.error());
                    }
                }
                cumulation.discardReadBytes();
            }
            return recording;
        } finally {
            reader.close();
            cumulation.release();
        }
    }

    private static Object render(Object message) {
        try {
            if (message instanceof Http2DataFrame data) {
                return "DATA " + data.streamId() + " " + data.endStream() + " " + ByteBufUtil.hexDump(data.content());
            }
            return message.toString();
        } finally {
            ReferenceCountUtil.release(message);
        }
    }
}
