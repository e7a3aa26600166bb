package io.rill.handler.codec.memcache.binary;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz target for both binary memcache decoders (a response decoder when the payload's first byte
 * is 0x81, else a request decoder) with a 4 KiB body bound the fuzzer can reach. Fed whole and in
 * fuzzer-chosen pieces, both runs must give the same messages and errors, only a
 * {@code DecoderException} may escape, nothing may leak, and every message encoded again must
 * decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/memcache/binary/BinaryMemcacheFuzzTestInputs/responses/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class BinaryMemcacheFuzzTest {

    @FuzzTest
    void responses(byte[] input) {
        FuzzLeaks.assertNoneReported();
        byte[] payload = FuzzInput.payload(input);
        boolean response = payload.length > 0 && payload[0] == BinaryMemcacheMessage.RESPONSE_MAGIC;
        java.util.function.Supplier<io.rill.channel.ChannelHandler> decoder = response
                ? () -> new BinaryMemcacheResponseDecoder(4096) : () -> new BinaryMemcacheRequestDecoder(4096);
        List<Object> whole = BinaryMemcacheCodecTest.decoded(List.of(payload), decoder);
        List<Object> pieces = BinaryMemcacheCodecTest.decoded(FuzzInput.pieces(input), decoder);
        // An error and the messages of the same read come in no fixed order: compare each kind alone.
        assertEquals(whole.stream().filter(o -> !(o instanceof Exception)).toList(),
                pieces.stream().filter(o -> !(o instanceof Exception)).toList(), "messages whole and in pieces");
        assertEquals(whole.stream().filter(o -> o instanceof Exception).map(Object::getClass).toList(),
                pieces.stream().filter(o -> o instanceof Exception).map(Object::getClass).toList(), "errors whole and in pieces");
        for (Object o : whole) {
            if (o instanceof BinaryMemcacheMessage m) {
                List<Object> again = BinaryMemcacheCodecTest.decoded(List.of(BinaryMemcacheCodecTest.wire(m.retain())),
                        decoder);
                assertEquals(List.of(m), again, "encoded and decoded again");
                BinaryMemcacheCodecTest.release(again);
            }
        }
        BinaryMemcacheCodecTest.release(whole);
        BinaryMemcacheCodecTest.release(pieces);
    }
}
