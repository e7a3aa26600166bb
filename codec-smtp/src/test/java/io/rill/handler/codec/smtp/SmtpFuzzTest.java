package io.rill.handler.codec.smtp;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

import io.rill.buffer.Unpooled;
import io.rill.channel.embedded.EmbeddedChannel;
import io.rill.fuzz.FuzzInput;
import io.rill.fuzz.FuzzLeaks;
import io.rill.handler.codec.DecoderException;

/**
 * Fuzz target for {@link SmtpResponseDecoder}, with small bounds (80-byte lines, 6 lines a reply)
 * the fuzzer can reach. Fed whole and in fuzzer-chosen pieces, both runs must give the same replies
 * and the same errors, only a {@code DecoderException} may escape and nothing may leak.
 *
 * <p>Seeds: {@code src/test/resources/io/rill/handler/codec/smtp/SmtpFuzzTestInputs/responses/},
 * first byte the split selector ({@code io.rill.fuzz.FuzzInput}). {@code scripts/fuzz.sh} fuzzes.
 */
class SmtpFuzzTest {

    @FuzzTest
    void responses(byte[] input) {
        FuzzLeaks.assertNoneReported();
        List<Object> whole = run(List.of(FuzzInput.payload(input)));
        List<Object> pieces = run(FuzzInput.pieces(input));
        // An error and the replies of the same read come in no fixed order: compare each kind alone.
        assertEquals(kind(whole, false), kind(pieces, false), "replies whole and in pieces");
        assertEquals(kind(whole, true), kind(pieces, true), "errors whole and in pieces");
    }

    private static List<Object> kind(List<Object> got, boolean errors) {
        return got.stream().filter(o -> (o instanceof Class) == errors).toList();
    }

    private static List<Object> run(List<byte[]> chunks) {
        EmbeddedChannel ch = new EmbeddedChannel(new SmtpResponseDecoder(80, 6));
        List<Object> got = new ArrayList<>();
        for (byte[] c : chunks) {
            try {
                ch.writeInbound(Unpooled.copiedBuffer(c));
            } catch (DecoderException e) {
                got.add(e.getClass());
            }
            for (Object m; (m = ch.readInbound()) != null; ) {
                got.add(m);
            }
        }
        ch.finishAndReleaseAll();
        return got;
    }
}
