package io.rill.handler.codec.compression;

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
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderFeed;

/**
 * Fuzz targets for {@link ZlibDecoder} in each of its four formats. A stream fed whole and in
 * pieces inflates to the same bytes; where one run fails (a limit, bad data) the other fails too
 * and what each produced first is a prefix of the other, since the output chunks, and so the
 * point where a limit is noticed, follow the reads. Output never passes the configured maximum;
 * only {@code DecoderException}s escape. Payloads compressed by {@link ZlibEncoder} inflate back to
 * themselves.
 */
class ZlibFuzzTest {

    /** Small enough that a fuzzer-made bomb hits it within one input. */
    private static final int MAX_OUTPUT = 64 * 1024;

    @FuzzTest
    void zlib(byte[] input) {
        inflate(input, ZlibWrapper.ZLIB);
    }

    @FuzzTest
    void gzip(byte[] input) {
        inflate(input, ZlibWrapper.GZIP);
    }

    @FuzzTest
    void raw(byte[] input) {
        inflate(input, ZlibWrapper.NONE);
    }

    @FuzzTest
    void detect(byte[] input) {
        inflate(input, ZlibWrapper.ZLIB_OR_NONE);
    }

    @FuzzTest
    void roundTrip(byte[] input) {
        FuzzLeaks.assertNoneReported();
        ZlibWrapper[] wrappers = {ZlibWrapper.ZLIB, ZlibWrapper.GZIP, ZlibWrapper.NONE};
        ZlibWrapper wrapper = wrappers[input.length == 0 ? 0 : (input[0] & 0xFF) % 3];
        byte[] payload = FuzzInput.payload(input);
        EmbeddedChannel encoder = new EmbeddedChannel(new ZlibEncoder(wrapper));
        encoder.writeOutbound(Unpooled.wrappedBuffer(payload));
        encoder.finish();
        List<byte[]> wire = new ArrayList<>();
        for (ByteBuf b; (b = encoder.readOutbound()) != null; ) {
            wire.add(ByteBufUtil.getBytes(b));
            b.release();
        }
        DecoderFeed.Result back = DecoderFeed.run(wire,
                () -> new ChannelHandler[] {new ZlibDecoder(wrapper, MAX_OUTPUT + 1L + payload.length, 0)}, DecoderFeed::bytes);
        assertEquals(List.of(), back.errors(), "a stream ZlibEncoder wrote inflates");
        assertEquals(ByteBufUtil.hexDump(payload), joined(back), "compress, inflate");
    }

    private static void inflate(byte[] input, ZlibWrapper wrapper) {
        FuzzLeaks.assertNoneReported();
        DecoderFeed.Result whole = DecoderFeed.run(List.of(FuzzInput.payload(input)),
                () -> new ChannelHandler[] {new ZlibDecoder(wrapper, MAX_OUTPUT, 100)}, DecoderFeed::bytes);
        DecoderFeed.Result pieces = DecoderFeed.run(FuzzInput.pieces(input),
                () -> new ChannelHandler[] {new ZlibDecoder(wrapper, MAX_OUTPUT, 100)}, DecoderFeed::bytes);
        String a = joined(whole);
        String b = joined(pieces);
        assertTrue(a.length() / 2 <= MAX_OUTPUT && b.length() / 2 <= MAX_OUTPUT, "output over the configured maximum");
        if (whole.errors().isEmpty() && pieces.errors().isEmpty()) {
            assertEquals(a, b, "inflated whole and in pieces");
        } else {
            assertEquals(whole.errors().isEmpty(), pieces.errors().isEmpty(),
                    () -> "whole: " + whole.errors() + ", in pieces: " + pieces.errors());
            assertTrue(a.startsWith(b) || b.startsWith(a), "one run's output is a prefix of the other's");
        }
    }

    private static String joined(DecoderFeed.Result result) {
        StringBuilder all = new StringBuilder();
        for (Object m : result.messages()) {
            all.append((String) m);
        }
        return all.toString();
    }
}
