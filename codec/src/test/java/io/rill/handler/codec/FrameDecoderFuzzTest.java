package io.rill.handler.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.buffer.Unpooled;
import io.rill.channel.ChannelHandler;
import io.rill.channel.embedded.EmbeddedChannel;

/**
 * Fuzz targets for the frame decoders of this package. Each input is fed whole and in pieces
 * ({@link DecoderFeed}); the targets add each decoder's own promises: no frame beyond its
 * maximum, a fixed-length frame exactly its length, and for the two length-prefixed formats the
 * round trip: every frame, prefixed again by the matching encoder, decodes to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/FrameDecoderFuzzTestInputs/<method>/},
 * first byte the split selector (see {@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class FrameDecoderFuzzTest {

    private static final int MAX = 256;

    @FuzzTest
    void lengthField(byte[] input) {
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new LengthFieldBasedFrameDecoder(MAX, 0, 2, 0, 2)}, DecoderFeed::bytes);
        assertFramesAtMost(result, MAX - 2);
        roundTrip(result, new LengthFieldPrepender(2), () -> new LengthFieldBasedFrameDecoder(MAX, 0, 2, 0, 2));
    }

    @FuzzTest
    void lengthFieldAdjusted(byte[] input) {
        // A 3-byte little-endian field after a 1-byte tag, counting itself: the arithmetic paths.
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new LengthFieldBasedFrameDecoder(java.nio.ByteOrder.LITTLE_ENDIAN,
                        MAX, 1, 3, -4, 0, input.length > 1 && (input[1] & 1) == 0)}, DecoderFeed::bytes);
        assertFramesAtMost(result, MAX);
    }

    @FuzzTest
    void lineBased(byte[] input) {
        boolean failFast = input.length > 1 && (input[1] & 1) != 0;
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new LineBasedFrameDecoder(64, true, failFast)}, DecoderFeed::bytes);
        for (Object frame : result.messages()) {
            String hex = (String) frame;
            assertTrue(hex.length() / 2 <= 64, "line longer than its maximum: " + hex);
            assertTrue(!containsByte(hex, 0x0a), "a stripped line holds a line feed: " + hex);
        }
    }

    @FuzzTest
    void delimiterBased(byte[] input) {
        boolean failFast = input.length > 1 && (input[1] & 1) != 0;
        boolean strip = input.length > 1 && (input[1] & 2) != 0;
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new DelimiterBasedFrameDecoder(64, strip, failFast,
                        new byte[] {'\r', '\n'}, new byte[] {0}, new byte[] {'-', '-', '-'})}, DecoderFeed::bytes);
        // Kept delimiters add at most three bytes.
        assertFramesAtMost(result, strip ? 64 : 67);
    }

    @FuzzTest
    void fixedLength(byte[] input) {
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new FixedLengthFrameDecoder(7)}, DecoderFeed::bytes);
        for (Object frame : result.messages()) {
            assertEquals(14, ((String) frame).length(), "a fixed-length frame of 7 bytes");
        }
        int payload = Math.max(0, input.length - 1);
        assertEquals(payload / 7, result.messages().size(), "every whole frame and no partial one");
    }

    @FuzzTest
    void varint32(byte[] input) {
        DecoderFeed.Result result = DecoderFeed.wholeAndPieces(input,
                () -> new ChannelHandler[] {new ProtobufVarint32FrameDecoder(MAX)}, DecoderFeed::bytes);
        assertFramesAtMost(result, MAX);
        roundTrip(result, new ProtobufVarint32LengthFieldPrepender(), () -> new ProtobufVarint32FrameDecoder(MAX));
    }

    private static void assertFramesAtMost(DecoderFeed.Result result, int max) {
        for (Object frame : result.messages()) {
            assertTrue(((String) frame).length() / 2 <= max, () -> "frame over " + max + " bytes: " + frame);
        }
    }

    /** Encodes each decoded frame again and decodes the lot: the frames must come back unchanged. */
    private static void roundTrip(DecoderFeed.Result result, ChannelHandler encoder,
                                  java.util.function.Supplier<ChannelHandler> decoder) {
        if (result.messages().isEmpty()) {
            return;
        }
        EmbeddedChannel out = new EmbeddedChannel(encoder);
        List<byte[]> wire = new ArrayList<>();
        for (Object frame : result.messages()) {
            out.writeOutbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump((String) frame)));
            for (ByteBuf b; (b = out.readOutbound()) != null; ) {
                wire.add(ByteBufUtil.getBytes(b));
                b.release();
            }
        }
        out.finishAndReleaseAll();
        DecoderFeed.Result again = DecoderFeed.run(wire, () -> new ChannelHandler[] {decoder.get()}, DecoderFeed::bytes);
        assertEquals(List.of(), again.errors(), "re-encoded frames decode without error");
        assertEquals(result.messages(), again.messages(), "decode, encode, decode");
    }

    private static boolean containsByte(String hex, int value) {
        for (int i = 0; i + 1 < hex.length(); i += 2) {
            if (Integer.parseInt(hex, i, i + 2, 16) == value) {
                return true;
            }
        }
        return false;
    }
}
