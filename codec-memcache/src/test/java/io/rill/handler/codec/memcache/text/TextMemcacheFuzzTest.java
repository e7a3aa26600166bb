package io.rill.handler.codec.memcache.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.function.Supplier;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ReferenceCountUtil;
import io.rill.channel.ChannelHandler;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz targets for both text memcache decoders, with small bounds the fuzzer can reach (lines of
 * 256 bytes, data blocks of 4 KiB, 8 keys). Fed whole and in fuzzer-chosen pieces, both runs must
 * give the same messages and errors, only a {@code DecoderException} may escape, nothing may leak,
 * and every message encoded again must decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/memcache/text/TextMemcacheFuzzTestInputs/<method>/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class TextMemcacheFuzzTest {

    @FuzzTest
    void requests(byte[] input) {
        run(input, () -> new TextMemcacheRequestDecoder(256, 4096, 8), TextMemcacheRequestEncoder.INSTANCE);
    }

    @FuzzTest
    void responses(byte[] input) {
        run(input, () -> new TextMemcacheResponseDecoder(256, 4096), TextMemcacheResponseEncoder.INSTANCE);
    }

    private static void run(byte[] input, Supplier<ChannelHandler> decoder, ChannelHandler encoder) {
        FuzzLeaks.assertNoneReported();
        List<Object> whole = TextMemcacheCodecTest.decoded(List.of(FuzzInput.payload(input)), decoder);
        List<Object> pieces = TextMemcacheCodecTest.decoded(FuzzInput.pieces(input), decoder);
        // An error and the messages of the same read come in no fixed order: compare each kind alone.
        assertEquals(whole.stream().filter(o -> !(o instanceof Exception)).toList(),
                pieces.stream().filter(o -> !(o instanceof Exception)).toList(), "messages whole and in pieces");
        assertEquals(whole.stream().filter(o -> o instanceof Exception).map(Object::getClass).toList(),
                pieces.stream().filter(o -> o instanceof Exception).map(Object::getClass).toList(), "errors whole and in pieces");
        for (Object o : whole) {
            if (!(o instanceof Exception)) {
                ReferenceCountUtil.retain(o);
                List<Object> again = TextMemcacheCodecTest.decoded(List.of(TextMemcacheCodecTest.wire(encoder, o)), decoder);
                assertEquals(List.of(o), again, "encoded and decoded again");
                TextMemcacheCodecTest.release(again);
            }
        }
        TextMemcacheCodecTest.release(whole);
        TextMemcacheCodecTest.release(pieces);
    }
}
