package io.rill.handler.codec.compression;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.function.Supplier;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.channel.ChannelHandler;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderFeed;

/**
 * Fuzz targets for {@link SnappyFrameDecoder} and {@link Lz4FrameDecoder}. Both formats frame
 * their chunks explicitly, so the promise is stricter than brotli's: fed whole and in
 * fuzzer-chosen pieces, the output and the error types are the same; output never passes the
 * cap; only {@code DecoderException}s escape; nothing leaks (docs/security-cases.md C-06, C-07).
 */
class SnappyLz4FuzzTest {

    /** Small enough that a fuzzer-made bomb hits it within one input. */
    private static final int MAX_OUTPUT = 64 * 1024;

    @FuzzTest
    void snappy(byte[] input) {
        decode(input, () -> new SnappyFrameDecoder(MAX_OUTPUT, 0, true));
    }

    @FuzzTest
    void lz4(byte[] input) {
        decode(input, () -> new Lz4FrameDecoder(MAX_OUTPUT, 0));
    }

    private static void decode(byte[] input, Supplier<ChannelHandler> decoder) {
        FuzzLeaks.assertNoneReported();
        DecoderFeed.Result whole = DecoderFeed.run(List.of(FuzzInput.payload(input)),
                () -> new ChannelHandler[] {decoder.get()}, DecoderFeed::bytes);
        DecoderFeed.Result pieces = DecoderFeed.run(FuzzInput.pieces(input),
                () -> new ChannelHandler[] {decoder.get()}, DecoderFeed::bytes);
        String a = String.join("", whole.messages().stream().map(String.class::cast).toList());
        String b = String.join("", pieces.messages().stream().map(String.class::cast).toList());
        assertTrue(a.length() / 2 <= MAX_OUTPUT && b.length() / 2 <= MAX_OUTPUT, "output over the configured maximum");
        assertEquals(a, b, "decoded whole and in pieces");
        assertEquals(whole.errorTypes(), pieces.errorTypes(),
                () -> "whole: " + whole.errors() + ", in pieces: " + pieces.errors());
    }
}
