package io.rill.handler.codec.haproxy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.ByteBuf;
import io.rill.buffer.ByteBufUtil;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;

/**
 * Fuzz target for the PROXY protocol decoder (versions 1 and 2). Each input is fed whole and in
 * fuzzer-chosen pieces; both runs must agree on the header, the bytes passed on after it and the
 * errors; only a {@code DecoderException} may come out, nothing may leak, and a decoded header,
 * encoded again, must decode to itself.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/haproxy/HAProxyFuzzTestInputs/header/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class HAProxyFuzzTest {

    @FuzzTest
    void header(byte[] input) {
        FuzzLeaks.assertNoneReported();
        HAProxyDecodeRun.Result whole = HAProxyDecodeRun.run(List.of(FuzzInput.payload(input)));
        HAProxyDecodeRun.Result pieces = HAProxyDecodeRun.run(FuzzInput.pieces(input));
        assertEquals(whole.message(), pieces.message(), "header whole and in pieces");
        assertEquals(whole.passedOn(), pieces.passedOn(), "bytes after the header");
        assertEquals(whole.errors().stream().map(Object::getClass).toList(),
                pieces.errors().stream().map(Object::getClass).toList(), "errors whole and in pieces");
        if (whole.message() != null) {
            EmbeddedChannel encoder = new EmbeddedChannel(HAProxyMessageEncoder.INSTANCE);
            encoder.writeOutbound(whole.message());
            ByteBuf wire = encoder.readOutbound();
            byte[] bytes = ByteBufUtil.getBytes(wire);
            wire.release();
            encoder.finish();
            assertEquals(whole.message(), HAProxyDecodeRun.run(List.of(bytes)).message(), "encoded and decoded again");
        }
    }
}
