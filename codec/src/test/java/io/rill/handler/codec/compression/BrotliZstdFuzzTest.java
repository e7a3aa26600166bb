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
 * Fuzz targets for {@link BrotliDecoder} and {@link ZstdDecoder}: input fed whole and in
 * fuzzer-chosen pieces gives the same output, or both runs fail with one output a prefix of the
 * other; output never passes the cap; only {@code DecoderException}s escape; nothing leaks.
 */
class BrotliZstdFuzzTest {

    /** Small enough that a fuzzer-made bomb hits it within one input. */
    private static final int MAX_OUTPUT = 64 * 1024;

    @FuzzTest
    void brotli(byte[] input) {
        decode(input, () -> new BrotliDecoder(MAX_OUTPUT, 0));
    }

    @FuzzTest
    void zstd(byte[] input) {
        decode(input, () -> new ZstdDecoder(MAX_OUTPUT, 0, ZstdDecoder.DEFAULT_MAX_WINDOW_LOG));
    }

    private static void decode(byte[] input, Supplier<ChannelHandler> decoder) {
        FuzzLeaks.assertNoneReported();
        DecoderFeed.Result whole = DecoderFeed.run(List.of(FuzzInput.payload(input)),
                () -> new ChannelHandler[] {decoder.get()}, DecoderFeed::bytes);
        DecoderFeed.Result pieces = DecoderFeed.run(FuzzInput.pieces(input),
                () -> new ChannelHandler[] {decoder.get()}, DecoderFeed::bytes);
        String a = joined(whole);
        String b = joined(pieces);
        assertTrue(a.length() / 2 <= MAX_OUTPUT && b.length() / 2 <= MAX_OUTPUT, "output over the configured maximum");
        if (whole.errors().isEmpty() && pieces.errors().isEmpty()) {
            assertEquals(a, b, "decoded whole and in pieces");
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
